// The negative control of the ELF note check: a function with neither .note.GNU-stack nor
// the GNU property note. Only assembled, never linked (linking it would make the stack
// executable).
	.text
	.globl sponge_test_no_notes
	.type sponge_test_no_notes, @function
sponge_test_no_notes:
	ret
	.size sponge_test_no_notes, . - sponge_test_no_notes
