// Command keccakbench times spongegen's Go package (spongegen.dev/keccak) against
// fastkeccak (github.com/erigontech/fastkeccak) and x/crypto's legacy Keccak-256, in one
// process, the implementations interleaved round by round so that load from elsewhere
// spreads over all of them; it prints the median of the rounds. Then it measures the longest
// stop-the-world latency while one goroutine hashes a large input, for the three, for Go
// code busy as long, and for an idle goroutine.
// bench/go.sh builds and runs it; it is not part of the tests (fastkeccak is fetched and
// built by hand).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"

	fastkeccak "github.com/erigontech/fastkeccak"
	"golang.org/x/crypto/sha3"
	"spongegen.dev/keccak"
)

type contender struct {
	name string
	run  func(n int) // n operations
}

type benchCase struct {
	name       string
	messages   int // per operation, for the per-message figure
	contenders []contender
}

func sum256Cases(sizes []int) []benchCase {
	var cases []benchCase
	for _, size := range sizes {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i)
		}
		cases = append(cases, benchCase{fmt.Sprintf("Sum256 %d B", size), 1, []contender{
			{"spongegen", func(n int) {
				for i := 0; i < n; i++ {
					_ = keccak.Sum256(data)
				}
			}},
			{"fastkeccak", func(n int) {
				for i := 0; i < n; i++ {
					_ = fastkeccak.Sum256(data)
				}
			}},
			{"x/crypto", func(n int) {
				h := sha3.NewLegacyKeccak256()
				var out [32]byte
				for i := 0; i < n; i++ {
					h.Reset()
					h.Write(data)
					h.Sum(out[:0])
				}
			}},
		}})
	}
	return cases
}

func streamingCase(total, piece int) benchCase {
	data := make([]byte, total)
	write := func(w interface{ Write([]byte) (int, error) }) {
		for p := data; len(p) > 0; p = p[piece:] {
			w.Write(p[:piece])
		}
	}
	return benchCase{fmt.Sprintf("Hasher %d B in writes of %d B", total, piece), 1, []contender{
		{"spongegen", func(n int) {
			for i := 0; i < n; i++ {
				var h keccak.Hasher
				write(&h)
				_ = h.Sum256()
			}
		}},
		{"fastkeccak", func(n int) {
			for i := 0; i < n; i++ {
				var h fastkeccak.Hasher
				write(&h)
				_ = h.Sum256()
			}
		}},
		{"x/crypto", func(n int) {
			var out [32]byte
			for i := 0; i < n; i++ {
				h := sha3.NewLegacyKeccak256()
				write(h)
				h.Sum(out[:0])
			}
		}},
	}}
}

func batchCase(count, size int) benchCase {
	messages := make([][]byte, count)
	for i := range messages {
		messages[i] = make([]byte, size)
		messages[i][0] = byte(i)
	}
	digests := make([][32]byte, count)
	return benchCase{fmt.Sprintf("%d messages of %d B", count, size), count, []contender{
		{"spongegen Sum256Batch", func(n int) {
			for i := 0; i < n; i++ {
				keccak.Sum256Batch(digests, messages)
			}
		}},
		{"spongegen Sum256 each", func(n int) {
			for i := 0; i < n; i++ {
				for j, m := range messages {
					digests[j] = keccak.Sum256(m)
				}
			}
		}},
		{"fastkeccak Sum256 each", func(n int) {
			for i := 0; i < n; i++ {
				for j, m := range messages {
					digests[j] = fastkeccak.Sum256(m)
				}
			}
		}},
	}}
}

func median(values []float64) float64 {
	sorted := append([]float64{}, values...)
	sort.Float64s(sorted)
	return sorted[len(sorted)/2]
}

// timeOps is the time of run(n).
func timeOps(run func(int), n int) time.Duration {
	start := time.Now()
	run(n)
	return time.Since(start)
}

// measure gives each contender a sample of about `sample` (the operation count calibrated
// once), `rounds` times, the contenders interleaved in an order that rotates every round, so
// a burst of load from elsewhere falls on one sample of each rather than on one contender;
// it returns each contender's samples in ns per message.
func measure(c benchCase, rounds int, sample time.Duration) [][]float64 {
	counts := make([]int, len(c.contenders))
	for i, k := range c.contenders {
		n := 1
		for timeOps(k.run, n) < sample/4 {
			n *= 2
		}
		counts[i] = n * 4
	}
	results := make([][]float64, len(c.contenders))
	for r := 0; r < rounds; r++ {
		for j := range c.contenders {
			i := (j + r) % len(c.contenders)
			d := timeOps(c.contenders[i].run, counts[i])
			results[i] = append(results[i], float64(d.Nanoseconds())/float64(counts[i]*c.messages))
		}
	}
	return results
}

// longestStop hashes `size` bytes with sum in one goroutine, while this one stops the world
// (runtime.ReadMemStats) every millisecond and times how long each stop takes; it returns
// every stop's latency. With a nil sum the other goroutine sleeps as
// long as the hashing took before: the machine's own stop latency, for comparison.
func stopLatencies(size int, sum func([]byte) [32]byte, idle time.Duration) []float64 {
	data := make([]byte, size)
	done := make(chan struct{})
	started := make(chan struct{})
	go func() {
		close(started)
		if sum != nil {
			_ = sum(data)
		} else {
			time.Sleep(idle)
		}
		close(done)
	}()
	<-started
	var latencies []float64
	var stats runtime.MemStats
	for {
		select {
		case <-done:
			sort.Float64s(latencies)
			return latencies
		default:
		}
		start := time.Now()
		runtime.ReadMemStats(&stats)
		latencies = append(latencies, float64(time.Since(start).Nanoseconds())/1e6)
		time.Sleep(time.Millisecond)
	}
}

func main() {
	rounds := flag.Int("rounds", 41, "interleaved samples of each contender; the median is printed")
	sample := flag.Duration("sample", 20*time.Millisecond, "the length of one sample")
	stopBytes := flag.Int("stop-bytes", 128<<20, "input size of the stop-the-world measurement")
	flag.Parse()
	runtime.GOMAXPROCS(2)

	cases := sum256Cases([]int{32, 136, 4096, 500000})
	cases = append(cases, streamingCase(1<<20, 4096), batchCase(1024, 32))
	fmt.Printf("# %s, GOMAXPROCS=%d, median of %d interleaved samples of %v\n", runtime.Version(),
		runtime.GOMAXPROCS(0), *rounds, *sample)
	for _, c := range cases {
		results := measure(c, *rounds, *sample)
		fmt.Printf("\n%s (ns per message)\n", c.name)
		first := median(results[0])
		for i, k := range c.contenders {
			m := median(results[i])
			fmt.Printf("  %-24s %12.1f  %5.2fx of %s\n", k.name, m, m/first, c.contenders[0].name)
		}
	}

	fmt.Printf("\nStop-the-world latency while one goroutine hashes %d MiB (Sum256, GOMAXPROCS=2)\n",
		*stopBytes>>20)
	start := time.Now()
	_ = keccak.Sum256(make([]byte, *stopBytes))
	hashing := time.Since(start)
	// Two more for comparison: x/crypto's assembly (not NOSPLIT, one permutation a call), and
	// Go code with no assembly at all, busy as long as the hashing took. On a shared guest a
	// stop also waits for the host to run the busy vCPU, which the idle run does not show.
	xcrypto := func(data []byte) (d [32]byte) {
		h := sha3.NewLegacyKeccak256()
		h.Write(data)
		h.Sum(d[:0])
		return d
	}
	busy := func([]byte) (d [32]byte) {
		x := uint64(1)
		for t := time.Now(); time.Since(t) < hashing; {
			for i := 0; i < 1000; i++ {
				x = x*6364136223846793005 + 1442695040888963407
			}
		}
		d[0] = byte(x)
		return d
	}
	for _, k := range []struct {
		name string
		sum  func([]byte) [32]byte
	}{{"spongegen", keccak.Sum256}, {"fastkeccak", fastkeccak.Sum256}, {"x/crypto", xcrypto},
		{"(busy Go, no hashing)", busy}, {"(idle, no hashing)", nil}} {
		l := stopLatencies(*stopBytes, k.sum, hashing)
		fmt.Printf("  %-24s longest %8.3f ms, 99th percentile %7.3f ms, median %7.3f ms (%d stops)\n",
			k.name, l[len(l)-1], l[len(l)*99/100], l[len(l)/2], len(l))
	}
	os.Exit(0)
}
