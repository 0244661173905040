// Concatenating reference sets along one dimension: the multi-file step of `kerchunk scan` and
// the whole of `kerchunk combine` (merging shard outputs). Semantics follow Python kerchunk's
// MultiZarrToZarr(concat_dims=[dim], identical_dims=[...]).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/codecs/chunk_reader.h"  // UrlToPath
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

struct CombineOptions {
  /// The dimension to concatenate along ("time" when empty).
  std::string concat_dim;
  /// Variables that must not be concatenated and are taken from the first part; variables
  /// without the concat dimension are always taken from the first part.
  std::vector<std::string> identical_dims;
  /// Compare the variables taken from the first part across all parts (values, not just
  /// metadata) and fail naming the first part and variable that differ.
  bool check_identical = false;
  /// How to read bytes of referenced chunks (concat coordinate values, --check-identical).
  UrlToPath url_to_path;
};

/// Concatenates `parts` (each one file's references, or an earlier combine's output) along
/// options.concat_dim, in the order of their concat coordinate values; the concat coordinate
/// becomes one inline array. Fails with a message naming the part (its first URL) and variable
/// when variables, dtypes, chunk shapes or non-concat shapes differ.
Result<ReferenceSet> CombineReferenceSets(std::vector<ReferenceSet> parts,
                                          const CombineOptions& options,
                                          std::vector<std::string>* warnings = nullptr);

}  // namespace kerchunk
