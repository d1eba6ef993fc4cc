// Runs numbered jobs on several threads and hands their results to one consumer in job
// order, as each next result becomes ready: output follows the argument order however the
// threads finish.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace spongesum {

// make_worker() is called once per thread and returns that thread's job runner,
// Result(std::size_t job); consume(Result&) runs on the calling thread, in job order.
template <class Result, class MakeWorker, class Consume>
void run_jobs_in_order(std::size_t job_count, unsigned thread_count, MakeWorker make_worker,
                       Consume consume) {
  thread_count = static_cast<unsigned>(std::min<std::size_t>(thread_count, job_count));
  if (thread_count <= 1) {
    auto work = make_worker();
    for (std::size_t job = 0; job < job_count; ++job) {
      Result result = work(job);
      consume(result);
    }
    return;
  }
  std::vector<std::optional<Result>> results(job_count);
  std::mutex mutex;
  std::condition_variable ready;
  std::size_t next_job = 0;
  std::vector<std::jthread> threads;
  for (unsigned t = 0; t < thread_count; ++t) {
    threads.emplace_back([&] {
      auto work = make_worker();
      for (;;) {
        std::size_t job;
        {
          std::lock_guard lock(mutex);
          if (next_job == job_count) return;
          job = next_job++;
        }
        Result result = work(job);
        {
          std::lock_guard lock(mutex);
          results[job] = std::move(result);
        }
        ready.notify_one();
      }
    });
  }
  for (std::size_t job = 0; job < job_count; ++job) {
    std::optional<Result> result;
    {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return results[job].has_value(); });
      result = std::move(results[job]);
      results[job].reset();
    }
    consume(*result);
  }
}

}  // namespace spongesum
