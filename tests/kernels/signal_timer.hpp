// A SIGALRM timer for the signal tests: ITIMER_REAL at a fixed interval, the handler
// installed with SA_SIGINFO | SA_RESTART on the thread's own stack (no sigaltstack), and
// everything restored on destruction.
#pragma once

#include <signal.h>
#include <sys/time.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

namespace sponge_kernel_test {

// How long a sampling loop may run to collect the samples it needs. The loops stop as soon
// as they have them (after one second on an idle machine); the limit is generous because a
// loaded machine under qemu collects them many times slower, and a test must not fail for
// the machine's speed.
inline constexpr std::chrono::seconds kSamplingLimit{60};

class AlarmTimer {
 public:
  using Handler = void (*)(int, siginfo_t*, void*);

  AlarmTimer(Handler handler, long interval_us) {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_RESTART;  // deliberately no SA_ONSTACK
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGALRM, &action, &previous_) != 0) {
      throw std::runtime_error("sigaction(SIGALRM) failed");
    }
    itimerval timer{};
    timer.it_interval.tv_sec = 0;
    timer.it_interval.tv_usec = interval_us;
    timer.it_value = timer.it_interval;
    if (setitimer(ITIMER_REAL, &timer, nullptr) != 0) {
      sigaction(SIGALRM, &previous_, nullptr);
      throw std::runtime_error("setitimer(ITIMER_REAL) failed");
    }
  }
  ~AlarmTimer() {
    const itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    sigaction(SIGALRM, &previous_, nullptr);
  }
  AlarmTimer(const AlarmTimer&) = delete;
  AlarmTimer& operator=(const AlarmTimer&) = delete;

 private:
  struct sigaction previous_;
};

}  // namespace sponge_kernel_test
