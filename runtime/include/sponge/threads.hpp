// The thread count of the tree modes' threaded forms (KangarooTwelve, ParallelHash):
// `sponge::Threads{2}`, or `sponge::Threads{0}` for one thread per CPU.
#pragma once

#include "sponge/export.h"

SPONGE_API_BEGIN
namespace sponge {

struct Threads {
  unsigned count = 1;
};

}  // namespace sponge
SPONGE_API_END
