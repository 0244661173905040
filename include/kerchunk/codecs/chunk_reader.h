// Reading the bytes of one chunk reference: inline data, or a byte range of a local file.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// Maps a reference URL to a local path to read bytes from (e.g. to read the concat
/// coordinate's values). The default reads URLs as local paths, accepting "file://" URLs.
using UrlToPath = std::function<Result<std::string>(std::string_view url)>;

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

/// ReadStoredChunks, each decoded through `pipeline` to `expected_size` raw bytes; errors name
/// the chunk key.
Result<std::vector<std::string>> ReadDecodedChunks(const ReferenceSet& refs, const ArrayRefs& array,
                                                   std::span<const size_t> positions,
                                                   const Pipeline& pipeline, uint64_t expected_size,
                                                   const UrlToPath& url_to_path = {});

}  // namespace codecs
}  // namespace kerchunk
