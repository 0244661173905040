// --deep and --source: read every (or a sample of) chunk, decode it through the array's codecs
// to exactly the chunk's size, check HDF5 fletcher32 checksums, and with --source compare the
// result with what the file's own library reads for the same elements.
#pragma once

#include <cstdint>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/verify/report.h"
#include "verify/catalog.h"
#include "verify/checks.h"
#include "verify/url_resolver.h"

namespace kerchunk::verify::internal {

struct ChunkCheckOptions {
  double sample = 1.0;  ///< fraction of chunks read (see Sampled)
  uint64_t seed = 0;
  bool source = false;  ///< also compare with the libraries (Check::kSource)
};

/// Adds Check::kDecode cases (and Check::kSource with options.source), one per array.
/// References the files check already rejected (missing file, range past the end) are counted
/// as not checked here rather than reported twice.
void CheckChunks(const ReferenceSet& refs, const Catalog& catalog, const ResolvedFiles& files,
                 const ChunkCheckOptions& options, const CheckContext& context, Report& report);

}  // namespace kerchunk::verify::internal
