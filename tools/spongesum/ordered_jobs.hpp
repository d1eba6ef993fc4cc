// Runs numbered jobs on several threads and hands their results to one consumer in job
// order, as each next result becomes ready: output follows the argument order however the
// threads finish.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace spongesum {

// make_worker() is called once per thread, on the calling thread, and returns that thread's
// job runner, Result(std::size_t job); consume(Result&) runs on the calling thread, in job
// order. When a thread cannot be started (std::thread throws std::system_error: no memory
// for its stack, a limit on processes; or its runner cannot be made: std::bad_alloc), the
// jobs run on the threads already started, or on the calling thread when none was;
// fewer_threads(started, wanted, reason) is called before the first result is consumed.
template <class Result, class MakeWorker, class Consume, class FewerThreads>
void run_jobs_in_order(std::size_t job_count, unsigned thread_count, MakeWorker make_worker,
                       Consume consume, FewerThreads fewer_threads) {
  thread_count = static_cast<unsigned>(std::min<std::size_t>(thread_count, job_count));
  const auto run_here = [&] {
    auto work = make_worker();
    for (std::size_t job = 0; job < job_count; ++job) {
      Result result = work(job);
      consume(result);
    }
  };
  if (thread_count <= 1) {
    run_here();
    return;
  }
  // Jobs of 1 KiB files take microseconds, so the hand-over must not cost a system call per
  // job: a worker publishes a result through its slot's flag and wakes the consumer only
  // when the consumer sleeps waiting for exactly that job (a futex per job made 10,000
  // small files slower on two threads than on one). The flag and `awaited` are sequentially
  // consistent: either the worker sees the consumer waiting, or the consumer sees the flag.
  struct Slot {
    std::optional<Result> result;
    std::atomic<bool> ready{false};
  };
  static constexpr std::size_t kNobody = static_cast<std::size_t>(-1);
  std::vector<Slot> slots(job_count);
  std::atomic<std::size_t> next_job{0};
  std::atomic<std::size_t> awaited{kNobody};
  std::mutex mutex;
  std::condition_variable ready;
  std::vector<std::jthread> threads;
  threads.reserve(thread_count);
  // Threads are started until one cannot be, and what stops them is often the address space
  // their stacks take (`ulimit -v`): then the started ones could not allocate a result line.
  // So this much is held while they start and released before any of them takes a job.
  constexpr std::size_t kReserveBytes = std::size_t{8} << 20;
  std::unique_ptr<char[]> reserve(new (std::nothrow) char[kReserveBytes]);
  std::atomic<bool> all_started{false};
  const char* reason = nullptr;  // why a thread could not start; no allocation: memory may
                                 // be what ran out
  for (unsigned t = 0; t < thread_count && !reason; ++t) {
    try {
      threads.emplace_back([&, work = make_worker()]() mutable {
        all_started.wait(false);
        for (std::size_t job; (job = next_job.fetch_add(1)) < job_count;) {
          slots[job].result = work(job);
          slots[job].ready.store(true);
          if (awaited.load() == job) {
            std::lock_guard lock(mutex);
            ready.notify_one();
          }
        }
      });
    } catch (const std::system_error& error) {
      reason = std::strerror(error.code().value());
    } catch (const std::bad_alloc&) {
      reason = "out of memory";
    }
  }
  reserve.reset();
  all_started.store(true);
  all_started.notify_all();
  if (reason) {
    const auto started = static_cast<unsigned>(threads.size());
    fewer_threads(started, thread_count, reason);
    if (started == 0) {
      run_here();
      return;
    }
  }
  for (std::size_t job = 0; job < job_count; ++job) {
    Slot& slot = slots[job];
    if (!slot.ready.load()) {
      std::unique_lock lock(mutex);
      awaited.store(job);
      ready.wait(lock, [&] { return slot.ready.load(); });
      awaited.store(kNobody);
    }
    consume(*slot.result);
    slot.result.reset();
  }
}

}  // namespace spongesum
