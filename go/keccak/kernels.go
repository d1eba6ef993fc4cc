package keccak

// kernel names one permutation or multi-state kernel the package can run. The dispatch on
// every block compares these small integers; the names are for tests and their messages.
type kernel uint8

const (
	// oneAtATime is the batch choice where no multi-state kernel runs: Sum256 on each message.
	oneAtATime kernel = iota
	portable
	amd64BMI2
	amd64AVX512x8
	amd64AVX2x4
	arm64SHA3
	arm64SHA3x2
)

var kernelNames = [...]string{
	oneAtATime:    "one-at-a-time",
	portable:      "portable",
	amd64BMI2:     "amd64-bmi2",
	amd64AVX512x8: "amd64-avx512-x8",
	amd64AVX2x4:   "amd64-avx2-x4",
	arm64SHA3:     "arm64-sha3",
	arm64SHA3x2:   "arm64-sha3-x2",
}

func (k kernel) String() string { return kernelNames[k] }
