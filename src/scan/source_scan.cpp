// One file where it lives: a memory map of a local file, or a FileImage of a remote one.
#include "kerchunk/scan/source_scan.h"

#include <chrono>

#include "kerchunk/io/file_image.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/util/file_io.h"
#include "scan/range_check.h"

namespace kerchunk {
namespace {

Status NotAFormat(const std::string& name) {
  return InvalidArgumentError(
      "{}: not an HDF5, NetCDF-4 or NetCDF-3 file (no HDF5 signature at 0, 512, 1024, ... and "
      "no \"CDF\" magic number)",
      name);
}

Result<FileScanResult> ScanLocal(const std::string& path, const std::string& url,
                                 const FileScanOptions& options, FileFetchStats& stats) {
  KERCHUNK_ASSIGN_OR_RETURN(MappedFile file, MappedFile::Open(path));
  stats.file_size = file.bytes().size();
  stats.mtime_ns = file.mtime_ns();
  const FormatScanner* scanner = FindFormatScanner(file.bytes());
  if (!scanner) return NotAFormat(path);
  return scanner->Scan({file.bytes(), path, url, path}, options);
}

// A source that forwards to one the caller keeps, so that its counts can still be read when
// FileImage::Open fails (and destroys what it was given).
class BorrowedSource : public io::ByteSource {
 public:
  explicit BorrowedSource(io::ByteSource& inner) : inner_(inner) {}
  const std::string& name() const override { return inner_.name(); }
  Result<uint64_t> Size() override { return inner_.Size(); }
  Result<std::string> Read(uint64_t offset, uint64_t length) override {
    return inner_.Read(offset, length);
  }
  Result<std::string> ReadPrefix(uint64_t max_length) override {
    return inner_.ReadPrefix(max_length);
  }
  io::SourceStats stats() const override { return inner_.stats(); }

 private:
  io::ByteSource& inner_;
};

void CopyStats(const io::SourceStats& from, FileFetchStats& to) {
  to.requests = from.requests;
  to.bytes_fetched = from.bytes_fetched;
  to.retries = from.retries;
}

// The "_ARRAY_DIMENSIONS" and "bounds" of an array's .zattrs (empty when absent or unreadable:
// retaining is an economy, never a reason to fail).
struct CoordinateAttributes {
  std::vector<std::string> dims;
  std::string bounds;
};

CoordinateAttributes ReadCoordinateAttributes(const ReferenceSet& refs, const std::string& path) {
  CoordinateAttributes out;
  const Entry* attrs = refs.FindEntry(path.empty() ? ".zattrs" : path + "/.zattrs");
  if (!attrs || attrs->value.kind != EntryValue::Kind::kText) return out;
  Result<json::Value> doc = json::Value::Parse(attrs->value.data);
  if (!doc.ok() || !doc->is_object()) return out;
  if (const json::Value* dims = doc->Find("_ARRAY_DIMENSIONS"); dims && dims->is_array()) {
    for (const json::Value& d : dims->as_array()) {
      if (d.is_string()) out.dims.push_back(d.as_string());
    }
  }
  if (const json::Value* bounds = doc->Find("bounds"); bounds && bounds->is_string()) {
    out.bounds = bounds->as_string();
  }
  return out;
}

// The arrays combine may read values of: coordinate variables and their bounds.
std::vector<const ArrayRefs*> CoordinateArrays(const ReferenceSet& refs) {
  std::vector<const ArrayRefs*> out;
  for (const ArrayRefs& array : refs.arrays) {
    CoordinateAttributes attrs = ReadCoordinateAttributes(refs, array.path());
    if (attrs.dims.size() != 1 || attrs.dims[0] != array.path()) continue;
    out.push_back(&array);
    if (const ArrayRefs* bounds = attrs.bounds.empty() ? nullptr : refs.FindArray(attrs.bounds)) {
      out.push_back(bounds);
    }
  }
  return out;
}

void Retain(const io::FileImage& image, const ReferenceSet& refs, RetainedBytes& retained) {
  for (const ArrayRefs* array : CoordinateArrays(refs)) {
    for (size_t i = 0; i < array->size(); ++i) {
      const ChunkRef ref = array->Get(i);
      if (ref.kind != RefKind::kRange) continue;
      if (retained.size() + ref.length > kRetainedBytesPerFile) return;
      if (!image.Holds(ref.offset, ref.length)) continue;
      const auto bytes = image.bytes().subspan(ref.offset, ref.length);
      retained.Add(ref.offset,
                   std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }
  }
}

// The image's fetch error, when there was one, explains the result better than the scanner's
// view of the zeros it read instead.
Result<FileScanResult> ScanRemote(const std::string& location, const std::string& url,
                                  const FileScanOptions& options,
                                  const io::SourceOptions& source_options, FileFetchStats& stats,
                                  RetainedBytes* retained) {
  stats.remote = true;
  KERCHUNK_ASSIGN_OR_RETURN(std::unique_ptr<io::ByteSource> source,
                            io::OpenByteSource(location, source_options));
  auto image = io::FileImage::Open(std::make_unique<BorrowedSource>(*source),
                                   {.head_bytes = kRemoteHeadBytes, .prefetch_head = true});
  if (!image.ok()) {
    CopyStats(source->stats(), stats);
    return image.status();
  }
  const io::FileImage& bytes = **image;
  stats.file_size = bytes.size();
  const FormatScanner* scanner = FindFormatScanner(bytes.bytes());
  Result<FileScanResult> result =
      scanner ? scanner->Scan({bytes.bytes(), location, url, ""}, options) : NotAFormat(location);
  CopyStats(bytes.stats(), stats);  // under the image's lock: its helper thread uses the source
  KERCHUNK_RETURN_IF_ERROR(bytes.status());
  if (retained && result.ok()) Retain(bytes, result->refs, *retained);
  return result;
}

}  // namespace

void RetainedBytes::Add(uint64_t offset, std::string bytes) {
  size_ += bytes.size();
  ranges_.insert_or_assign(offset, std::move(bytes));
}

std::optional<std::string_view> RetainedBytes::Find(uint64_t offset, uint64_t length) const {
  auto it = ranges_.upper_bound(offset);
  if (it == ranges_.begin()) return std::nullopt;
  --it;  // the last range starting at or before offset
  const uint64_t start = it->first, size = it->second.size();
  if (offset - start > size || length > size - (offset - start)) return std::nullopt;
  return std::string_view(it->second).substr(offset - start, length);
}

Result<FileScanResult> ScanSource(const std::string& location, const std::string& url,
                                  const FileScanOptions& options,
                                  const io::SourceOptions& source_options, FileFetchStats* stats,
                                  RetainedBytes* retained) {
  const auto start = std::chrono::steady_clock::now();
  FileFetchStats local_stats;
  FileFetchStats& s = stats ? *stats : local_stats;
  s = {};
  Result<FileScanResult> result =
      io::IsRemoteUrl(location) ? ScanRemote(location, url, options, source_options, s, retained)
                                : ScanLocal(location, url, options, s);
  if (result.ok()) {
    // Whatever the scanners' own checks, no reference may point past the end of its file.
    Status inside = internal::CheckRangesInside(result->refs, url, s.file_size);
    if (!inside.ok()) result = std::move(inside);
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace kerchunk
