// --source for one array: where each file's part of the array lies (a combined index places
// several files' datasets side by side), where the library stores each chunk, and whether the
// library reads the same values as the decoded chunk.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/verify/report.h"
#include "verify/catalog.h"
#include "verify/source.h"

namespace kerchunk::verify::internal {

/// What the original file of one URL says about one array.
struct FileGeometry {
  Status error;             ///< the file or dataset could not be used (a source finding)
  bool fletcher32 = false;  ///< stored chunks are followed by a 4-byte checksum
  /// Element offset of the file's dataset inside the zarr array (non-zero along the dimension
  /// a combined index concatenates files on).
  std::vector<uint64_t> origin;
  /// The file's dataset with `leading` dimensions of length 1 in front (leading_dims.h).
  std::vector<uint64_t> file_shape;
  /// Leading dimensions of the zarr array the file's dataset lacks (a combine along a new
  /// dimension added them, with chunk extent 1).
  size_t leading = 0;
};

/// The .zattrs of the array at `path` as JSON; null when absent or not JSON (the metadata
/// check reports that).
json::Value AttributesOf(const ReferenceSet& refs, const std::string& path);

/// What the index says about decoding an array, worked out once per array for --source: its CF
/// decoding (.zattrs, with units and calendar of the coordinate whose bounds it is), and that
/// coordinate's path, whose units the array shares in the original files too.
struct IndexView {
  CfDecoding decoding;
  std::string bounds_of;  ///< path of the coordinate naming this array in `bounds`, or empty
};
IndexView IndexViewOf(const ReferenceSet& refs, const ArrayInfo& info);

/// The references of one array into one URL, summarised for FileGeometry.
struct UrlGroup {
  uint32_t url = 0;
  uint64_t count = 0;
  std::vector<uint64_t> min_coords;  ///< smallest chunk coordinate per dimension
  size_t first_at_min = 0;           ///< a reference whose coordinates are min_coords, if any
  bool has_first_at_min = false;
};

/// Groups an array's byte-range references by URL.
std::vector<UrlGroup> GroupByUrl(const ArrayRefs& array);

/// Opens the dataset and works out the geometry. With `source` unset only fletcher32 is looked
/// up (and a file that cannot be opened is not an error). Problems that concern the whole file
/// (its dataset has more chunks than the index references) go to `log`.
FileGeometry DescribeFile(const ArrayInfo& info, const UrlGroup& group, bool only_url, bool source,
                          SourceFiles& sources, const UrlTable& urls, CaseLog& log);

/// Compares reference `i` of the array (already decoded to `decoded`, or `strings` for object
/// dtypes) with the library; problems go to `log`.
void CompareWithSource(const ReferenceSet& refs, const ArrayInfo& info, const IndexView& view,
                       size_t i, const FileGeometry& geometry, uint32_t url,
                       const std::string& decoded,
                       const std::vector<std::optional<std::string>>* strings, SourceFiles& sources,
                       CaseLog& log);

/// For an inline chunk of an array that several files fill (a concatenated coordinate, which
/// combine stores inline, its values possibly converted to the first file's time units):
/// compares the chunk's elements that came from the file of `url` (placed by `geometry`) with
/// the file, as CompareWithSource does. Numeric dtypes only. False when the chunk holds no
/// element of that file.
bool CompareInlinePart(const ReferenceSet& refs, const ArrayInfo& info, const IndexView& view,
                       size_t i, const FileGeometry& geometry, uint32_t url,
                       const std::string& decoded, SourceFiles& sources, CaseLog& log);

}  // namespace kerchunk::verify::internal
