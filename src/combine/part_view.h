// The variables of one combine input ("part"), with parsed .zarray and dimension names, and the
// plan of what happens to each variable.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kerchunk/combine/combine.h"
#include "kerchunk/refs/zarr_metadata.h"

namespace kerchunk::internal {

/// One array of a part.
struct PartVariable {
  std::string path;
  ZarrArrayMeta meta;
  std::vector<std::string> dims;    ///< "_ARRAY_DIMENSIONS" of its .zattrs; empty when absent
  json::Value attrs;                ///< its .zattrs document (an empty object when absent)
  const ArrayRefs* refs = nullptr;  ///< its chunk references; nullptr when it has none

  /// Position of `dim` in dims, if present.
  std::optional<size_t> Axis(std::string_view dim) const;
};

/// A part and its variables by path.
struct PartView {
  size_t index = 0;
  std::string label;  ///< "part 3 (data/x.nc)": how errors name the part
  const ReferenceSet* refs = nullptr;
  std::map<std::string, PartVariable, std::less<>> variables;

  const PartVariable* Find(std::string_view path) const;

  /// The root .zattrs document (an empty object when absent), parsed on each call. Only the
  /// first part's is written out (DescribePart checks it); the others' are read only for
  /// `--coord DIM=attr:NAME` and an overlap's hint, while a CMIP6 file carries kilobytes of
  /// them, which every part parsing and freeing cost the 33-file siconc series a tenth of its
  /// combine.
  Result<json::Value> GlobalAttrs() const;
};

/// Parsed .zarray and .zattrs documents by their text, shared by the parts of one combine on
/// every thread. The files of a series repeat each other's metadata (the 33-file siconc series
/// has 330 .zarray documents and a handful of distinct texts), and parsing them was most of
/// describing a part. Only documents that parse are kept.
class PartMetadataCache {
 public:
  Result<ZarrArrayMeta> Zarray(std::string_view text);
  Result<json::Value> Zattrs(std::string_view text);

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  template <typename T>
  using ByText = std::unordered_map<std::string, T, Hash, std::equal_to<>>;
  template <typename T, typename Parse>
  Result<T> Find(ByText<T>& map, std::string_view text, Parse parse);

  std::mutex mutex_;
  ByText<ZarrArrayMeta> zarrays_;
  ByText<json::Value> zattrs_;
};

/// Indexes the variables (arrays with a .zarray) of `part`. InvalidArgument naming the part and
/// key when a .zarray or .zattrs document is malformed. Documents are parsed through `cache`
/// when one is given.
Result<PartView> DescribePart(const ReferenceSet& part, size_t index,
                              PartMetadataCache* cache = nullptr);

/// "part 3 (url)" with the part's first URL, or "part 3" when it has none.
std::string PartLabel(const ReferenceSet& part, size_t index);

enum class VariableRole {
  kCoordinate,    ///< the concat dimension's coordinate variable: read, merged, stored inline
  kConcatenated,  ///< has the concat dimension: chunks renumbered along it
  kFromFirst,     ///< taken from the first part as is
};

struct VariablePlan {
  std::string path;
  VariableRole role = VariableRole::kFromFirst;
  size_t axis = 0;  ///< the concat dimension's position (kCoordinate, kConcatenated)
  /// kConcatenated whose values combine can rebuild inline (the coordinate's bounds): its chunk
  /// shapes may differ between parts, as they do between the outputs of earlier combines.
  bool rebuildable = false;
};

/// The role of every variable of the first part, in path order. InvalidArgument when
/// identical_dims names the concat dimension's coordinate.
Result<std::vector<VariablePlan>> PlanVariables(const PartView& first,
                                                const CombineOptions& options);

/// Checks that `part` has the same variables as `first` and, for variables with the concat
/// dimension, the same dtype, codecs, order, chunks, dimensions and non-concat shape (fill
/// values and other value attributes: value_attributes.h). Errors name the part and the
/// variable ("expected X, got Y").
Status CheckPartMatches(const PartView& first, const PartView& part,
                        const std::vector<VariablePlan>& plan);

}  // namespace kerchunk::internal
