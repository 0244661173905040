// Reading the bytes of one chunk reference: inline data, or a byte range of a local file (or of
// a remote one, through a reader the caller supplies: this layer does no network I/O).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// Reads byte ranges {offset, length} of a remote file (a location with a scheme, such as
/// "https://..." or "s3://..."), all of them or an error naming the location.
using RemoteRangeReader = std::function<Result<std::vector<std::string>>(
    const std::string& location, std::span<const std::pair<uint64_t, uint64_t>> ranges)>;

/// Maps a reference URL to the location to read bytes from (e.g. to read the concat
/// coordinate's values): a local path, or, when a RemoteRangeReader is given, a remote location
/// ("https://...", "s3://...") that the reader reads. The default reads URLs as local paths,
/// accepting "file://" URLs. Converts from any function of the mapping alone, as before readers
/// of remote files existed.
class UrlToPath {
 public:
  using Function = std::function<Result<std::string>(std::string_view url)>;

  UrlToPath() = default;
  template <typename F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, UrlToPath> &&
           std::is_constructible_v<Function, F>) UrlToPath(F to_path)
      : to_path_(std::move(to_path)) {}  // NOLINT: as the function it was
  UrlToPath(Function to_path, RemoteRangeReader read_remote)
      : to_path_(std::move(to_path)), read_remote_(std::move(read_remote)) {}

  explicit operator bool() const { return static_cast<bool>(to_path_); }
  Result<std::string> operator()(std::string_view url) const { return to_path_(url); }
  /// The reader of remote locations; empty when only local files are read.
  const RemoteRangeReader& read_remote() const { return read_remote_; }

 private:
  Function to_path_;
  RemoteRangeReader read_remote_;
};

namespace codecs {

/// "file:///a/b" -> "/a/b", "file://a" -> "a", a plain path unchanged; other schemes
/// ("s3://", "https://") are Unsupported errors naming the URL.
Result<std::string> DefaultUrlToPath(std::string_view url);

/// The stored (still encoded) bytes of reference `i` of `array` in `refs`: inline bytes as held,
/// or the referenced range read from the file `url_to_path` (DefaultUrlToPath when empty) names.
/// Errors name the chunk key; a range beyond the end of the file is DataLoss.
Result<std::string> ReadStoredChunk(const ReferenceSet& refs, const ArrayRefs& array, size_t i,
                                    const UrlToPath& url_to_path = {});

/// The stored bytes of references `positions` of `array`, in that order: what ReadStoredChunk
/// gives for each, but each file is opened and sized once and references lying close together
/// in a file (gaps up to kCoalescedGapBytes) are read with one pread. A coordinate chunked by
/// one element is thousands of 8-byte ranges between the data chunks: read one by one, that was
/// an open, stat, pread and close per value.
Result<std::vector<std::string>> ReadStoredChunks(const ReferenceSet& refs, const ArrayRefs& array,
                                                  std::span<const size_t> positions,
                                                  const UrlToPath& url_to_path = {});

/// The largest gap between two ranges ReadStoredChunks reads as one (bytes read and dropped),
/// and the largest such combined read.
inline constexpr uint64_t kCoalescedGapBytes = uint64_t{256} << 10;
inline constexpr uint64_t kCoalescedReadBytes = uint64_t{16} << 20;

/// The stored bytes of reference `i` decoded through `pipeline` to `expected_size` raw bytes;
/// errors name the chunk key.
Result<std::string> ReadDecodedChunk(const ReferenceSet& refs, const ArrayRefs& array, size_t i,
                                     const Pipeline& pipeline, uint64_t expected_size,
                                     const UrlToPath& url_to_path = {});

/// ReadStoredChunks, each decoded through `pipeline` to `expected_size` raw bytes of which the
/// first `keep_bytes` are kept (Pipeline::DecodePrefix); errors name the chunk key.
Result<std::vector<std::string>> ReadDecodedChunks(const ReferenceSet& refs, const ArrayRefs& array,
                                                   std::span<const size_t> positions,
                                                   const Pipeline& pipeline, uint64_t expected_size,
                                                   const UrlToPath& url_to_path = {},
                                                   uint64_t keep_bytes = UINT64_MAX);

}  // namespace codecs
}  // namespace kerchunk
