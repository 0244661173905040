// Before --deep/--source read chunks: for every array, which files its references point into
// and what each file's library says about the array's dataset there (fletcher32; with
// --source the dataset's place in a combined array). Files are looked up URL by URL, so each
// is opened once however many arrays it holds.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/verify/report.h"
#include "verify/catalog.h"
#include "verify/chunk_source.h"
#include "verify/source.h"
#include "verify/url_resolver.h"

namespace kerchunk::verify::internal {

struct ArrayPlan {
  const ArrayInfo* info = nullptr;
  size_t ordinal = 0;                      ///< the array's number, for sampling
  bool decodable = false;                  ///< valid metadata and supported codecs
  std::map<uint32_t, FileGeometry> files;  ///< by URL id
  std::optional<uint32_t> inline_url;      ///< original file of inline chunks, when known
  /// With --source, for an array held inline whose elements come from several files (a
  /// concatenated coordinate or its bounds): each file's place in it, by URL id, taken from the
  /// places the other arrays of the same dimension give the file.
  std::map<uint32_t, FileGeometry> inline_files;
  IndexView index;  ///< with --source
};

/// Plans `arrays` (each with chunk columns). With `source`, problems that concern a whole
/// file (it cannot be opened; its dataset has chunks the index lacks) go to the array's entry
/// of `source_logs`; a file of a format no library here reads is only skipped later.
std::vector<ArrayPlan> PlanArrays(const ReferenceSet& refs,
                                  const std::vector<const ArrayInfo*>& arrays,
                                  const ResolvedFiles& files, bool source, SourceFiles& sources,
                                  unsigned threads, std::vector<CaseLog>& source_logs);

}  // namespace kerchunk::verify::internal
