// run_jobs_in_order: results reach the consumer in job order whatever order threads finish.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "ordered_jobs.hpp"

namespace {

// Threads are not short here (spongesum_thread_fallback makes them short).
void fewer_threads(unsigned, unsigned, const char*) {
  FAIL("a thread could not be started");
}

}  // namespace

TEST_CASE("results arrive in job order from several threads") {
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    std::vector<std::size_t> seen;
    spongesum::run_jobs_in_order<std::size_t>(
        100, threads,
        [] {
          return [](std::size_t job) {
            // Early jobs finish last.
            std::this_thread::sleep_for(std::chrono::microseconds((100 - job) % 7 * 50));
            return job;
          };
        },
        [&](std::size_t& job) { seen.push_back(job); }, fewer_threads);
    REQUIRE(seen.size() == 100);
    for (std::size_t i = 0; i < seen.size(); ++i)
      CHECK(seen[i] == i);
  }
}

TEST_CASE("no jobs, no calls") {
  int calls = 0;
  spongesum::run_jobs_in_order<int>(
      0, 4, [] { return [](std::size_t) { return 0; }; }, [&](int&) { ++calls; }, fewer_threads);
  CHECK(calls == 0);
}
