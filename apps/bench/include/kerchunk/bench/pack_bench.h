// Measurements of pack/unpack for `kerchunk bench` and the figures in README: sizes against the
// Kerchunk JSON and zstd -19 of it, the entropy of the chunk lengths, and speeds.
//
// Honest by construction (a speed is worth nothing for a wrong result): before anything is timed,
// the packed file is expanded and compared with the input by checksum, and the keys used for
// lookups are resolved and compared with the input's values; a mismatch is an Internal error, not a
// figure. Times are the best of `repetitions` runs in CPU time of the calling thread (robust to
// other processes on a shared machine); wall time is reported beside it.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::pack {

struct PackBenchOptions {
  int repetitions = 5;
  uint64_t lookups = 20000;  ///< random present chunk keys resolved after opening
  bool zstd = true;          ///< also compress the JSON with zstd -19 (slow on large sets)
  uint32_t checkpoint_interval = 256;
};

struct PackBenchTime {
  double cpu_seconds = 0;   ///< best run, CPU time of this thread
  double wall_seconds = 0;  ///< wall time of that run
};

struct PackBenchResult {
  uint64_t keys = 0, references = 0;  ///< keys of the set; byte-range chunk references
  uint64_t json_bytes = 0;            ///< SerializeKerchunkJson of the set
  uint64_t zstd_bytes = 0;            ///< zstd level 19 of that JSON (0 if not measured)
  uint64_t packed_bytes = 0;
  double length_entropy_bits = 0;  ///< zero-order entropy of the chunk lengths, bits per length
  PackBenchTime pack;              ///< Pack() of the model, checksum included
  PackBenchTime unpack;            ///< PackedIndex::UnpackAll(): decode + checksum check
  PackBenchTime open;              ///< PackedIndex::Parse(): parse + validate, ready to look up
  PackBenchTime json_read;         ///< ParseKerchunkJson() of the JSON into the model
  PackBenchTime json_dom;          ///< simdjson DOM parse of the JSON alone
  double lookup_ns = 0;            ///< mean CPU ns per PackedIndex::Resolve()
};

/// Measures `refs` (a finalized set). Fails (Internal) if the packed form does not expand to
/// `refs` or a lookup returns a wrong value; InvalidArgument for bad options.
Result<PackBenchResult> RunPackBench(const ReferenceSet& refs, const PackBenchOptions& options);

/// The figures as a table for people: bytes per reference, ratios, entropy, speeds.
void WritePackBench(const PackBenchResult& result, std::ostream& out);

}  // namespace kerchunk::pack
