module spongegen.dev/keccak

go 1.19
