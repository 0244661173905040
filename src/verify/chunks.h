// --deep and --source: chunks decoded through their codecs, and compared with what the original
// files' own libraries read (chunk locations, element values, CF decoding).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/combine/cf_time.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/chunk_grid.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/status.h"
#include "kerchunk/verify/report.h"
#include "verify/checks.h"
#include "verify/files.h"
#include "verify/metadata.h"

// What a CF reader (xarray's mask_and_scale, netCDF4-python's auto mask and scale) makes of a
// variable's stored numbers: values equal to _FillValue or missing_value are masked, others
// become (optionally unsigned) value * scale_factor + add_offset. verify --source decodes each
// chunk twice — through the index's attributes and through the original file's own — so that
// an index whose attributes are not the file's (a combine that kept the first file's
// scale_factor) fails although the stored numbers are identical.
namespace kerchunk::verify::internal {

struct CfDecoding {
  std::optional<double> scale_factor;
  std::optional<double> add_offset;
  /// _FillValue: the index's .zattrs attribute, else its .zarray fill_value; the file's
  /// attribute. A file without the attribute leaves it unset (see Compare).
  std::optional<double> fill_value;
  std::vector<double> missing_values;
  bool is_unsigned = false;  ///< _Unsigned = "true" on a signed integer variable
  /// The units and calendar attributes (text; empty when absent). With units "<unit> since
  /// <date>" a reader decodes the numbers to dates (Time()).
  std::string units;
  std::string calendar;

  /// The value a reader sees for stored number `x` (already read in the variable's dtype, or
  /// reinterpreted as unsigned by the caller); nullopt when masked.
  std::optional<double> Decode(double x) const;
  /// The CF time units and calendar when `units` are "<unit> since <date>" in a calendar this
  /// toolkit knows; nullopt otherwise (not a time, or "months since", "none" calendar, ...).
  std::optional<CfTimeUnits> Time() const;
  /// "scale_factor 0.01, add_offset 250.0, _FillValue -32767" (only what is set, and units and
  /// calendar for times), or "no CF attributes".
  std::string Describe() const;
  bool operator==(const CfDecoding&) const = default;
};

/// CF lets a bounds variable ("time_bnds", named by its coordinate's `bounds` attribute) leave
/// out units and calendar, which it then shares with its coordinate; xarray copies them over
/// before decoding. Sets `bounds`'s missing units and calendar from `coordinate`'s.
void InheritTimeAttributes(const CfDecoding& coordinate, CfDecoding& bounds);

/// The index's decoding of an array from its .zattrs document (`attrs`, an object or null) and
/// .zarray. Attributes that are not numbers (or lists of numbers, for missing_value) are
/// ignored, as readers ignore them.
CfDecoding IndexDecoding(const json::Value& attrs, const ZarrArrayMeta& meta);

/// A source file's decoding from its attributes: `numbers(name)` gives an attribute's values
/// (empty when absent or not numeric), `text(name)` a text attribute (empty when absent or not
/// text); scale_factor, add_offset and _FillValue count only when they hold exactly one value.
CfDecoding SourceDecoding(const std::function<std::vector<double>(const char*)>& numbers,
                          const std::function<std::string(const char*)>& text);

}  // namespace kerchunk::verify::internal

// The elements a zarr chunk covers, and comparing a decoded chunk with the same elements read
// by a library. zarr v2 stores edge chunks at full chunk size, padded past the array's end;
// only the part inside the array is compared.
namespace kerchunk::verify::internal {

/// Elements [start, start + count) of the array.
struct ChunkRegion {
  std::vector<uint64_t> start;
  std::vector<uint64_t> count;
};

/// The region of chunk `linear` of `grid`: start = coords * chunks, count clipped to the shape.
ChunkRegion RegionOf(const ChunkGrid& grid, uint64_t linear);

/// Row-major index within the region of the first element whose bytes differ between a decoded
/// full chunk (`chunk_shape`, C order) and `region_bytes` (the region's elements, C order), or
/// nullopt when they are equal.
std::optional<uint64_t> FirstDifference(std::string_view decoded_chunk,
                                        const std::vector<uint64_t>& chunk_shape,
                                        std::string_view region_bytes,
                                        const std::vector<uint64_t>& count, uint64_t itemsize);

/// The element at row-major `index` of a C-order buffer: its bytes.
std::string_view ElementAt(std::string_view bytes, uint64_t index, uint64_t itemsize);
/// Byte offset in a full decoded chunk of the region element at row-major `index`.
uint64_t ChunkOffsetOf(uint64_t index, const std::vector<uint64_t>& count,
                       const std::vector<uint64_t>& chunk_shape, uint64_t itemsize);

/// Coordinates of row-major `index` in an array of shape `count`.
std::vector<uint64_t> Unravel(uint64_t index, const std::vector<uint64_t>& count);

/// One element for messages: its number for integer and float dtypes, else its bytes in hex.
std::string FormatElement(std::string_view bytes, const DtypeInfo& dtype);

/// "[0:10, 20:30]" for a region.
std::string FormatRegion(const ChunkRegion& region);

}  // namespace kerchunk::verify::internal

// Object (dtype "|O") chunks whose items are not all strings. numcodecs' json2 holds any JSON
// values (Python kerchunk stores compound rows that way), which zarr decodes into an object
// array; the codecs library decodes strings only, so such chunks are checked here for their
// form: the byte codecs decode and the JSON is json2's [items..., "|O", shape] with the chunk's
// number of items.
namespace kerchunk::verify::internal {

/// Checks a json2 chunk as above; DataLoss saying what is wrong.
Status CheckJson2Chunk(const codecs::Pipeline& pipeline, std::string_view stored,
                       uint64_t expected_items);

}  // namespace kerchunk::verify::internal

// The original files as their own libraries read them (libhdf5 for HDF5/NetCDF-4, netCDF-C for
// NetCDF-3): the oracle `verify --source` compares decoded chunks with. Nothing here uses the
// toolkit's own HDF5 or NetCDF-3 parsers, so a bug shared by scan and verify cannot hide.
namespace kerchunk::verify::internal {

/// Where the library says a chunk's bytes are.
struct StoredLocation {
  bool allocated = false;
  uint64_t offset = 0;  ///< absolute file offset
  uint64_t size = 0;    ///< stored bytes, including a fletcher32 checksum
  uint32_t filter_mask = 0;
};

/// One dataset (variable) of an original file. Not thread-safe: SourceFiles serialises use.
class SourceDataset {
 public:
  virtual ~SourceDataset() = default;
  /// "HDF5 dataset /tas" or "netCDF variable tas", for messages.
  virtual std::string Describe() const = 0;
  /// The shape in this file.
  virtual const std::vector<uint64_t>& shape() const = 0;
  /// True when stored chunks end with HDF5's 4-byte fletcher32 checksum.
  virtual bool fletcher32() const { return false; }
  /// The library's record of the chunk whose first element is `start`; nullopt when the format
  /// keeps no such record (NetCDF-3, compact datasets).
  virtual Result<std::optional<StoredLocation>> Locate(std::span<const uint64_t> start) = 0;
  /// Allocated chunks, when the library counts them.
  virtual Result<std::optional<uint64_t>> CountChunks() = 0;
  /// The first element of the chunk stored at `offset`, by scanning the chunk index (slow; at
  /// most `limit` chunks). nullopt when none is found or the format has no index.
  virtual Result<std::optional<std::vector<uint64_t>>> FindChunkAt(uint64_t offset,
                                                                   uint64_t limit) = 0;
  /// Reads elements [start, start + count) in C order as `dtype` (same item size and byte
  /// order as the zarr array), appending nothing: `out` is resized to the exact bytes.
  virtual Status Read(std::span<const uint64_t> start, std::span<const uint64_t> count,
                      const DtypeInfo& dtype, std::string& out) = 0;
  /// The dataset's own CF attributes as its library reads them (scale_factor, add_offset,
  /// _FillValue, missing_value as numbers; _Unsigned); attributes that are not numbers are left
  /// out, as readers ignore them.
  virtual Result<CfDecoding> Decoding() = 0;
  /// Reads variable-length strings (object arrays); a missing value is nullopt.
  virtual Result<std::vector<std::optional<std::string>>> ReadStrings(
      std::span<const uint64_t> start, std::span<const uint64_t> count) = 0;
};

/// One original file with its datasets opened on demand.
class SourceFile {
 public:
  virtual ~SourceFile() = default;
  /// The dataset of the zarr array at `array_path` ("g/tas" -> HDF5 "/g/tas"); NotFound when
  /// the file has none.
  virtual Result<SourceDataset*> Dataset(const std::string& array_path) = 0;
  /// OK, or why some of the file's bytes could not be read (a remote file whose fetches failed
  /// reads as zeros: see io::FileImage).
  virtual Status status() const { return OkStatus(); }
};

/// Opens an HDF5 or NetCDF-3 file (judged by its first bytes) with its library.
Result<std::unique_ptr<SourceFile>> OpenSourceFile(const std::string& path);
Result<std::unique_ptr<SourceFile>> OpenHdf5Source(const std::string& path);
Result<std::unique_ptr<SourceFile>> OpenNetcdf3Source(const std::string& path);
/// The same on a file's bytes in memory (`name` for messages), read in place: `image` must
/// outlive the file.
Result<std::unique_ptr<SourceFile>> OpenHdf5SourceImage(std::span<const std::byte> image,
                                                        const std::string& name);
Result<std::unique_ptr<SourceFile>> OpenNetcdf3SourceImage(std::span<const std::byte> image,
                                                           const std::string& name);

/// The source files of a reference set by URL id, opened lazily and kept open (up to a limit,
/// least recently used closed first). Thread-safe: work on one file is serialised, since
/// netCDF-C is not thread-safe and libhdf5 takes a global lock anyway.
class SourceFiles {
 public:
  SourceFiles(const UrlTable& urls, const ResolvedFiles& files, size_t max_open = 64)
      : urls_(urls), files_(files), max_open_(max_open) {}

  /// Runs fn on the dataset of `array` in the file of `url`, holding that file's lock. Errors
  /// opening the file or the dataset are returned (and remembered: a file that failed to open
  /// is not retried).
  Status With(uint32_t url, const std::string& array,
              const std::function<Status(SourceDataset&)>& fn);

 private:
  struct Slot {
    std::mutex mutex;
    std::unique_ptr<SourceFile> file;
    Status open_error;
  };
  std::shared_ptr<Slot> Acquire(uint32_t url);

  const UrlTable& urls_;
  const ResolvedFiles& files_;
  size_t max_open_;
  std::mutex mutex_;
  std::unordered_map<uint32_t, std::shared_ptr<Slot>> open_;
  std::list<uint32_t> recent_;  // most recently used first
  std::unordered_map<uint32_t, Status> failed_;
};

}  // namespace kerchunk::verify::internal

// A file's dataset seen with the leading dimensions a combined index added in front of it: an
// ensemble combined along a new "member" dimension stores member m's tas (time, lat, lon) as
// the chunks [m, ...] of tas (member, time, lat, lon), with chunk extent 1 along "member". The
// file's dataset then reads as if it had a leading dimension of length 1.
namespace kerchunk::verify::internal {

class LeadingDimsDataset : public SourceDataset {
 public:
  /// `leading`: dimensions of length 1 shown in front of `inner`'s.
  LeadingDimsDataset(SourceDataset& inner, size_t leading);

  std::string Describe() const override { return inner_.Describe(); }
  const std::vector<uint64_t>& shape() const override { return shape_; }
  bool fletcher32() const override { return inner_.fletcher32(); }
  Result<std::optional<StoredLocation>> Locate(std::span<const uint64_t> start) override;
  Result<std::optional<uint64_t>> CountChunks() override { return inner_.CountChunks(); }
  Result<std::optional<std::vector<uint64_t>>> FindChunkAt(uint64_t offset,
                                                           uint64_t limit) override;
  Status Read(std::span<const uint64_t> start, std::span<const uint64_t> count,
              const DtypeInfo& dtype, std::string& out) override;
  Result<CfDecoding> Decoding() override { return inner_.Decoding(); }
  Result<std::vector<std::optional<std::string>>> ReadStrings(
      std::span<const uint64_t> start, std::span<const uint64_t> count) override;

 private:
  SourceDataset& inner_;
  size_t leading_;
  std::vector<uint64_t> shape_;
};

/// How many leading dimensions of a zarr array with `chunks` a file's dataset of rank
/// `file_rank` lacks: 0 for equal ranks; InvalidArgument when the file has more dimensions, or
/// when a missing one has chunk extent other than 1 (a chunk would span several files).
Result<size_t> LeadingDims(size_t file_rank, const std::vector<uint64_t>& chunks);

}  // namespace kerchunk::verify::internal

// --source for one array: where each file's part of the array lies (a combined index places
// several files' datasets side by side), where the library stores each chunk, and whether the
// library reads the same values as the decoded chunk.
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

// Before --deep/--source read chunks: for every array, which files its references point into
// and what each file's library says about the array's dataset there (fletcher32; with
// --source the dataset's place in a combined array). Files are looked up URL by URL, so each
// is opened once however many arrays it holds.
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

// --source, after the stored numbers matched: what a CF reader sees through the index's
// attributes against what it sees through the original file's own (cf_decoding.h).
namespace kerchunk::verify::internal {

/// Decodes the elements of `local` (the file's part of the chunk; `global` in the array) held in
/// `decoded` (the full decoded chunk) through `index`, and the same elements read from the file
/// (`file_values`, the region in C order) through the dataset's own decoding `own`, and fails `log`
/// with the first element a reader would see differently, naming both values and both sets of
/// attributes. Values with CF time units are compared as instants (to the microsecond, and to
/// the rounding of the stored type), so numbers stored in other units of the same calendar may
/// differ; units of other kinds, or other calendars, are one problem. Numeric dtypes only
/// (others pass). A file without _FillValue takes the index's: readers disagree on default fill
/// values, and scan takes them from the HDF5 fill value, which the file's attributes do not show.
Status CompareDecoded(SourceDataset& ds, const ArrayInfo& info, const CfDecoding& index,
                      CfDecoding own, const ChunkRegion& global, const ChunkRegion& local,
                      const std::string& decoded, const std::string& file_values,
                      const std::string& file, CaseLog& log, const std::string& key);

/// Both decodings have CF time units of one calendar, in other units or reference dates: the
/// stored numbers then differ (combine converts a concatenated coordinate and its bounds to the
/// first file's units) while the dates may be the same.
bool TimesInOtherUnits(const CfDecoding& index, const CfDecoding& own);

}  // namespace kerchunk::verify::internal

// --deep and --source: read every (or a sample of) chunk, decode it through the array's codecs
// to exactly the chunk's size, check HDF5 fletcher32 checksums, and with --source compare the
// result with what the file's own library reads for the same elements.
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
