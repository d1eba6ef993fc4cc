// A module the residue test loads with lazy binding. lazy_binding_call calls
// lazy_binding_target through this module's PLT (a default-visibility function of a
// position-independent object may be interposed, so the call is not bound at link time), so
// the first call after each load runs the dynamic linker's resolver, which saves the caller's
// argument and vector registers on the stack below it.
__attribute__((noinline)) void lazy_binding_target(void) {
  __asm__ volatile("");
}

void lazy_binding_call(void) {
  lazy_binding_target();
}
