package keccak

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// paths runs f once per permutation this machine can run, with that one forced.
func paths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	saved := useKernel
	defer func() { useKernel = saved }()
	for _, k := range kernelsHere() {
		useKernel = k
		t.Run(k.String(), f)
	}
}

// The kernels chosen here, where the test run names the ones it expects (the arm64 runs
// under qemu do, for a CPU with SHA3 and one without): a kernel that silently fell back to
// the portable code would otherwise pass every other test.
func TestKernelsExpected(t *testing.T) {
	for _, c := range []struct {
		env  string
		here []kernel
	}{{"SPONGE_GO_EXPECTED_KERNELS", kernelsHere()}, {"SPONGE_GO_EXPECTED_BATCH_KERNELS", batchKernelsHere()}} {
		want, set := os.LookupEnv(c.env)
		if !set {
			t.Logf("%s not set: this CPU runs %q", c.env, c.here)
			continue
		}
		names := make([]string, len(c.here))
		for i, k := range c.here {
			names[i] = k.String()
		}
		if got := strings.Join(names, ","); got != want {
			t.Errorf("%s=%q, but this CPU runs %q", c.env, want, got)
		}
	}
}

func katFile(t *testing.T) string {
	dir := os.Getenv("SPONGE_KAT_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "tests", "kat")
	}
	return filepath.Join(dir, "keccak-legacy", "ShortMsgKAT_256.txt")
}

func TestShortMsgKAT(t *testing.T) {
	f, err := os.Open(katFile(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type kat struct{ msg, md []byte }
	var kats []kat
	var bitLen int
	var msg []byte
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		key, value, ok := strings.Cut(scanner.Text(), " = ")
		if !ok {
			continue
		}
		switch key {
		case "Len":
			bitLen, _ = strconv.Atoi(value)
		case "Msg":
			msg, _ = hex.DecodeString(value)
		case "MD":
			if bitLen%8 == 0 {
				md, _ := hex.DecodeString(value)
				kats = append(kats, kat{msg[:bitLen/8], md})
			}
		}
	}
	if len(kats) < 100 {
		t.Fatalf("%d byte-aligned entries in %s", len(kats), katFile(t))
	}
	paths(t, func(t *testing.T) {
		for _, k := range kats {
			if got := Sum256(k.msg); !bytes.Equal(got[:], k.md) {
				t.Fatalf("Sum256 of %d bytes: %x, want %x", len(k.msg), got, k.md)
			}
			var h Hasher
			for i := range k.msg {
				h.Write(k.msg[i : i+1])
			}
			if got := h.Sum(nil); !bytes.Equal(got, k.md) {
				t.Fatalf("Hasher of %d bytes one at a time: %x, want %x", len(k.msg), got, k.md)
			}
			out := make([]byte, 32)
			h.Read(out)
			if !bytes.Equal(out, k.md) {
				t.Fatalf("Read of %d bytes: %x, want %x", len(k.msg), out, k.md)
			}
		}
	})
}

// The generated kernel and the portable permutation agree on states no message reaches.
func TestKernelsAgree(t *testing.T) {
	var a [25]uint64
	x := uint64(0x9e3779b97f4a7c15)
	for i := range a {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		a[i] = x
	}
	want := a
	keccakF1600Generic(&want)
	paths(t, func(t *testing.T) {
		got := a
		permute(&got)
		if got != want {
			t.Fatalf("permutation differs from the portable one")
		}
	})
}

// The fused absorb entry equals the block XORed in, then the portable permutation.
func TestAbsorbAgrees(t *testing.T) {
	var a [25]uint64
	var block [rate]byte
	x := uint64(0x243f6a8885a308d3)
	next := func() uint64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x }
	for trial := 0; trial < 20; trial++ {
		for i := range a {
			a[i] = next()
		}
		for i := range block {
			block[i] = byte(next())
		}
		want := a
		for i := 0; i < rate/8; i++ {
			want[i] ^= le64(block[8*i:])
		}
		keccakF1600Generic(&want)
		paths(t, func(t *testing.T) {
			got := a
			absorb(&got, &block)
			if got != want {
				t.Fatalf("trial %d: absorb differs from XOR and the portable permutation", trial)
			}
		})
	}
}

func TestWriteAfterReadPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "keccak: Write after Read" {
			t.Fatalf("recovered %v", r)
		}
	}()
	h := NewFastKeccak()
	h.Write([]byte("abc"))
	h.Read(make([]byte, 1))
	h.Write([]byte("d"))
}

func TestHasherMethods(t *testing.T) {
	var h Hasher
	if h.Size() != 32 || h.BlockSize() != 136 {
		t.Fatalf("Size %d BlockSize %d", h.Size(), h.BlockSize())
	}
	h.Write([]byte("abc"))
	first := h.Sum256()
	if second := h.Sum256(); first != second || first != Sum256([]byte("abc")) {
		t.Fatal("Sum256 changed the hasher or differs from the one-shot Sum256")
	}
	h.Reset()
	if h.Sum256() != Sum256(nil) {
		t.Fatal("Reset did not empty the hasher")
	}
	var _ KeccakState = NewFastKeccak()
}

func TestSum256DoesNotAllocate(t *testing.T) {
	data := make([]byte, 500)
	paths(t, func(t *testing.T) {
		if n := testing.AllocsPerRun(100, func() { _ = Sum256(data) }); n != 0 {
			t.Fatalf("Sum256 allocates %v times a call", n)
		}
	})
}

// Every generated function must begin with the stack-bound check (compare SP with the
// goroutine's stack guard), the only point where the runtime can stop a hashing goroutine.
// The test runs where go is (amd64), and checks the arm64 build's functions there too.
func TestGeneratedFunctionChecksStack(t *testing.T) {
	if runtime.GOARCH != "amd64" || !generatedBuilt {
		t.Skip("the generated kernels are not in this build, or go is not here to build one")
	}
	amd64 := generatedPrologues(t, "amd64")
	if len(amd64) != generatedFunctions {
		t.Fatalf("%d generated functions in the amd64 binary, want %d: %q", len(amd64), generatedFunctions, amd64)
	}
	for name, code := range amd64 {
		if !startsWithStackCheck(code) {
			t.Errorf("%s begins %q, want the stack-bound check", name, code)
		}
	}
	// The functions keccakf_arm64.go calls.
	arm64 := generatedPrologues(t, "arm64")
	for _, want := range []string{"sponge_keccakf1600_arm64_sha3_absorb136", "sponge_keccakf1600_arm64_sha3_x2", "sponge_keccakf1600_arm64_sha3_x2_absorb136"} {
		if _, ok := arm64["spongegen.dev/keccak."+want+".abi0(SB)"]; !ok {
			t.Errorf("%s is not in the arm64 binary: %q", want, arm64)
		}
	}
	for name, code := range arm64 {
		if !startsWithArm64StackCheck(code) {
			t.Errorf("%s begins %q, want the stack-bound check", name, code)
		}
	}
	t.Logf("first instructions: %q %q", amd64, arm64)
}

// generatedPrologues builds the test binary for goarch (go test runs one linked without its
// symbol table) and returns the first four instructions of each generated function in it.
func generatedPrologues(t *testing.T, goarch string) map[string][]string {
	exe := filepath.Join(t.TempDir(), "keccak."+goarch+".test")
	build := exec.Command("go", "test", "-c", "-o", exe, ".")
	build.Env = append(os.Environ(), "GOARCH="+goarch)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOARCH=%s go test -c: %v\n%s", goarch, err, out)
	}
	out, err := exec.Command("go", "tool", "objdump", "-s", "sponge_keccakf1600_"+goarch+"_", exe).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool objdump: %v\n%s", err, out)
	}
	first := map[string][]string{}
	name := ""
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimRight(line, "\t ")
		if strings.HasPrefix(line, "TEXT ") {
			name = ""
			file := line[strings.LastIndex(line, "/")+1:]
			if strings.HasPrefix(file, "keccakf1600_"+goarch+"_") && strings.HasSuffix(file, "_"+goarch+".s") {
				name = strings.Fields(line)[1]
				first[name] = nil
			}
		} else if name != "" && len(first[name]) < 4 {
			first[name] = append(first[name], strings.TrimSpace(line[strings.LastIndex(line, "\t")+1:]))
		}
	}
	return first
}

// startsWithArm64StackCheck reports whether code begins with Go's stack-bound check on
// arm64: g's stack guard (16(R28)) loaded, compared with SP less the frame beyond 128 bytes
// (or SP itself), then BLS to the stack growth call.
func startsWithArm64StackCheck(code []string) bool {
	if len(code) < 3 || code[0] != "MOVD 16(R28), R16" {
		return false
	}
	if strings.HasPrefix(code[1], "SUB $") && strings.HasSuffix(code[1], ", RSP, R17") {
		return len(code) >= 4 && code[2] == "CMP R16, R17" && strings.HasPrefix(code[3], "BLS ")
	}
	return code[1] == "CMP R16, RSP" && strings.HasPrefix(code[2], "BLS ")
}

// startsWithStackCheck reports whether code begins with Go's stack-bound check on amd64: g
// loaded from thread-local storage (ABI0 code), then SP, or SP less the frame beyond 128
// bytes, compared with g's stack guard at 0x10(g), then JBE to the stack growth call.
func startsWithStackCheck(code []string) bool {
	if len(code) > 0 && strings.HasPrefix(code[0], "MOVQ FS:") && strings.HasSuffix(code[0], ", R14") {
		code = code[1:]
	}
	// objdump prints the displacement as -0x58, or past 0x7f as its 32-bit pattern (0xfffffd58).
	if len(code) >= 3 && (strings.HasPrefix(code[0], "LEAQ -") || strings.HasPrefix(code[0], "LEAQ 0xffff")) &&
		strings.Contains(code[0], "(SP), ") {
		tmp := code[0][strings.LastIndex(code[0], " ")+1:]
		return code[1] == "CMPQ 0x10(R14), "+tmp && strings.HasPrefix(code[2], "JBE ")
	}
	return len(code) >= 2 && code[0] == "CMPQ SP, 0x10(R14)" && strings.HasPrefix(code[1], "JBE ")
}

func TestStartsWithStackCheckCanFail(t *testing.T) {
	if startsWithStackCheck([]string{"MOVQ 0x8(SP), DI", "LEAQ 0(IP), AX"}) {
		t.Fatal("a function without the check passes")
	}
	if !startsWithStackCheck([]string{"MOVQ FS:0xfffffff8, R14", "LEAQ -0x58(SP), R12", "CMPQ 0x10(R14), R12", "JBE 0x1"}) {
		t.Fatal("the ABI0 check of a large frame fails")
	}
	if !startsWithStackCheck([]string{"MOVQ FS:0xfffffff8, R14", "LEAQ 0xfffffd58(SP), R12", "CMPQ 0x10(R14), R12", "JBE 0x1"}) {
		t.Fatal("the ABI0 check of an 808-byte frame fails")
	}
	if startsWithStackCheck([]string{"MOVQ FS:0xfffffff8, R14", "LEAQ 0x10(SP), R12", "CMPQ 0x10(R14), R12", "JBE 0x1"}) {
		t.Fatal("an address above SP passes as the check")
	}
	if !startsWithArm64StackCheck([]string{"MOVD 16(R28), R16", "SUB $16, RSP, R17", "CMP R16, R17", "BLS 141(PC)"}) {
		t.Fatal("the arm64 check of a 144-byte frame fails")
	}
	if startsWithArm64StackCheck([]string{"MOVD state(FP), R0", "FLDPD (R0), (F0, F1)", "FLDPD 16(R0), (F2, F3)"}) {
		t.Fatal("an arm64 function without the check passes")
	}
}

func BenchmarkSum256(b *testing.B) {
	saved := useKernel
	defer func() { useKernel = saved }()
	for _, k := range kernelsHere() {
		for _, size := range []int{32, 136, 4096} {
			data := make([]byte, size)
			useKernel = k
			b.Run(k.String()+"/"+strconv.Itoa(size), func(b *testing.B) {
				b.SetBytes(int64(size))
				for i := 0; i < b.N; i++ {
					_ = Sum256(data)
				}
			})
		}
	}
}

// batchPaths runs f once per multi-state kernel this machine can run (and once with none),
// with that one forced.
func batchPaths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	saved := useBatchKernel
	defer func() { useBatchKernel = saved }()
	for _, k := range batchKernelsHere() {
		useBatchKernel = k
		t.Run(k.String(), f)
	}
}

// batchMessages is n messages cut from one buffer, of lengths drawn from lengths in turn.
func batchMessages(n int, lengths []int) [][]byte {
	messages := make([][]byte, n)
	for i := range messages {
		m := make([]byte, lengths[i%len(lengths)])
		for j := range m {
			m[j] = byte(i*131 + j*7 + 1)
		}
		messages[i] = m
	}
	return messages
}

func TestSum256BatchAgrees(t *testing.T) {
	// Every length around the block boundaries, in an order that ends messages of one
	// batch at different blocks, so states take new messages at different times.
	var lengths []int
	for _, block := range []int{0, rate, 2 * rate, 3 * rate} {
		for delta := -2; delta <= 2; delta++ {
			if block+delta >= 0 {
				lengths = append(lengths, block+delta)
			}
		}
	}
	lengths = append(lengths, 32, 1000, 7, 5*rate+3)
	batchPaths(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 2, 7, 8, 9, 16, 17, 100} {
			messages := batchMessages(n, lengths)
			digests := make([][32]byte, n)
			Sum256Batch(digests, messages)
			for i, m := range messages {
				if want := Sum256(m); digests[i] != want {
					t.Fatalf("%d messages: message %d (%d bytes): %x, want %x", n, i, len(m), digests[i], want)
				}
			}
		}
	})
}

func TestSum256BatchWantsOneDigestPerMessage(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Sum256Batch with fewer digests than messages did not panic")
		}
	}()
	Sum256Batch(make([][32]byte, 2), batchMessages(3, []int{32}))
}

func TestSum256BatchDoesNotAllocate(t *testing.T) {
	messages := batchMessages(64, []int{32, 200, 500})
	digests := make([][32]byte, len(messages))
	batchPaths(t, func(t *testing.T) {
		if n := testing.AllocsPerRun(20, func() { Sum256Batch(digests, messages) }); n != 0 {
			t.Fatalf("Sum256Batch allocates %v times a call", n)
		}
	})
}

// Sum256Batch of 1,024 messages of 32 bytes, per message, against Sum256 on each.
func BenchmarkSum256Batch(b *testing.B) {
	saved := useBatchKernel
	defer func() { useBatchKernel = saved }()
	messages := batchMessages(1024, []int{32})
	digests := make([][32]byte, len(messages))
	for _, k := range batchKernelsHere() {
		useBatchKernel = k
		b.Run(k.String()+"/1024x32", func(b *testing.B) {
			b.SetBytes(int64(32 * len(messages)))
			start := time.Now()
			for i := 0; i < b.N; i++ {
				Sum256Batch(digests, messages)
			}
			perMessage := float64(time.Since(start).Nanoseconds()) / float64(b.N*len(messages))
			b.ReportMetric(perMessage, "ns/message")
		})
	}
}
