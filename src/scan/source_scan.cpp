// One file where it lives: a memory map of a local file, or a FileImage of a remote one.
#include "kerchunk/scan/source_scan.h"

#include <chrono>

#include "kerchunk/io/file_image.h"
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

// The image's fetch error, when there was one, explains the result better than the scanner's
// view of the zeros it read instead.
Result<FileScanResult> ScanRemote(const std::string& location, const std::string& url,
                                  const FileScanOptions& options,
                                  const io::SourceOptions& source_options, FileFetchStats& stats) {
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
  return result;
}

}  // namespace

Result<FileScanResult> ScanSource(const std::string& location, const std::string& url,
                                  const FileScanOptions& options,
                                  const io::SourceOptions& source_options, FileFetchStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  FileFetchStats local_stats;
  FileFetchStats& s = stats ? *stats : local_stats;
  s = {};
  Result<FileScanResult> result = io::IsRemoteUrl(location)
                                      ? ScanRemote(location, url, options, source_options, s)
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
