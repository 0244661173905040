#include "kerchunk/codecs/chunk_reader.h"

#include <algorithm>
#include <map>

#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::codecs {
namespace {

// The context of a chunk's errors, 'chunk "tas/0.1.2"'. Built only when there is an error: the
// reads it annotates succeed millions of times.
auto ChunkContext(const ArrayRefs& array, size_t i) {
  return [&array, i] {
    return fmt::format("chunk \"{}{}\"", array.KeyPrefix(), array.grid().Key(array.chunk_index(i)));
  };
}

// A location with a scheme is not a local path: only a RemoteRangeReader reads it.
bool IsRemoteLocation(std::string_view location) {
  return location.find("://") != std::string_view::npos;
}

}  // namespace

Result<std::string> DefaultUrlToPath(std::string_view url) {
  constexpr std::string_view kFile = "file://";
  if (url.starts_with(kFile)) return std::string(url.substr(kFile.size()));
  auto scheme_end = url.find("://");
  if (scheme_end != std::string_view::npos) {
    return UnsupportedError("cannot read \"{}\": only local paths and file:// URLs are read", url);
  }
  return std::string(url);
}

Result<std::string> ReadStoredChunk(const ReferenceSet& refs, const ArrayRefs& array, size_t i,
                                    const UrlToPath& url_to_path) {
  if (i >= array.size()) {
    return InternalError("chunk position {} out of range for array \"{}\"", i, array.path());
  }
  ChunkRef ref = array.Get(i);
  if (ref.kind == RefKind::kInline) return std::string(ref.data);
  auto key = ChunkContext(array, i);
  if (ref.url >= refs.urls.size())
    return InternalError("{}: url id {} out of range", key(), ref.url);
  const std::string& url = refs.urls[ref.url];
  KERCHUNK_ASSIGN_OR_RETURN(std::string path,
                            (url_to_path ? url_to_path(url) : DefaultUrlToPath(url)).Annotate(key));
  if (IsRemoteLocation(path) && url_to_path.read_remote() && ref.kind == RefKind::kRange) {
    const std::pair<uint64_t, uint64_t> range{ref.offset, ref.length};
    KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> read,
                              url_to_path.read_remote()(path, {&range, 1}).Annotate(key));
    return std::move(read.at(0));
  }
  if (ref.kind == RefKind::kWholeFile) return ReadFileToString(path).Annotate(key);
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t file_size, FileSize(path).Annotate(key));
  if (!RangeWithin(ref.offset, ref.length, file_size)) {
    return DataLossError("{}: range [{}, +{}) lies beyond the end of {} ({} bytes)", key(),
                         ref.offset, ref.length, path, file_size);
  }
  return ReadFileRange(path, ref.offset, ref.length).Annotate(key);
}

namespace {

// The references of one file to read: (index into the caller's positions, reference).
struct FileReads {
  std::vector<std::pair<size_t, ChunkRef>> refs;
};

Status ReadRangesOfFile(const std::string& path, const ArrayRefs& array,
                        std::span<const size_t> positions, FileReads& reads,
                        std::vector<std::string>& out) {
  auto key = [&](size_t k) { return ChunkContext(array, positions[k])(); };
  KERCHUNK_ASSIGN_OR_RETURN(ReadOnlyFile file,
                            ReadOnlyFile::Open(path).Annotate(key(reads.refs.front().first)));
  for (const auto& [k, ref] : reads.refs) {
    if (!RangeWithin(ref.offset, ref.length, file.size())) {
      return DataLossError("{}: range [{}, +{}) lies beyond the end of {} ({} bytes)", key(k),
                           ref.offset, ref.length, path, file.size());
    }
  }
  std::sort(reads.refs.begin(), reads.refs.end(),
            [](const auto& a, const auto& b) { return a.second.offset < b.second.offset; });
  for (size_t first = 0; first < reads.refs.size();) {
    // Grow the run while the next range starts close to the run's end.
    const uint64_t start = reads.refs[first].second.offset;
    uint64_t end = start + reads.refs[first].second.length;
    size_t last = first + 1;
    for (; last < reads.refs.size(); ++last) {
      const ChunkRef& next = reads.refs[last].second;
      const uint64_t next_end = std::max(end, next.offset + next.length);
      if (next.offset > end + kCoalescedGapBytes || next_end - start > kCoalescedReadBytes) break;
      end = next_end;
    }
    KERCHUNK_ASSIGN_OR_RETURN(std::string run,
                              file.Read(start, end - start).Annotate(key(reads.refs[first].first)));
    for (size_t r = first; r < last; ++r) {
      const auto& [k, ref] = reads.refs[r];
      out[k] = run.substr(ref.offset - start, ref.length);
    }
    first = last;
  }
  return OkStatus();
}

}  // namespace

Result<std::vector<std::string>> ReadStoredChunks(const ReferenceSet& refs, const ArrayRefs& array,
                                                  std::span<const size_t> positions,
                                                  const UrlToPath& url_to_path) {
  std::vector<std::string> out(positions.size());
  std::map<uint32_t, FileReads> by_url;
  for (size_t k = 0; k < positions.size(); ++k) {
    const size_t i = positions[k];
    if (i >= array.size()) {
      return InternalError("chunk position {} out of range for array \"{}\"", i, array.path());
    }
    ChunkRef ref = array.Get(i);
    if (ref.kind == RefKind::kRange) {
      by_url[ref.url].refs.emplace_back(k, ref);
    } else {
      // Inline data and whole-file references are rare: read them as one reference is.
      KERCHUNK_ASSIGN_OR_RETURN(out[k], ReadStoredChunk(refs, array, i, url_to_path));
    }
  }
  for (auto& entry : by_url) {
    const uint32_t url_id = entry.first;
    FileReads& reads = entry.second;
    auto key = ChunkContext(array, positions[reads.refs.front().first]);
    if (url_id >= refs.urls.size())
      return InternalError("{}: url id {} out of range", key(), url_id);
    const std::string& url = refs.urls[url_id];
    KERCHUNK_ASSIGN_OR_RETURN(
        std::string path, (url_to_path ? url_to_path(url) : DefaultUrlToPath(url)).Annotate(key()));
    if (IsRemoteLocation(path) && url_to_path.read_remote()) {
      // One call per file: the reader coalesces neighbouring ranges into few requests.
      std::vector<std::pair<uint64_t, uint64_t>> ranges;
      for (const auto& [k, ref] : reads.refs) ranges.emplace_back(ref.offset, ref.length);
      KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> read,
                                url_to_path.read_remote()(path, ranges).Annotate(key()));
      for (size_t r = 0; r < reads.refs.size(); ++r) out[reads.refs[r].first] = std::move(read[r]);
      continue;
    }
    KERCHUNK_RETURN_IF_ERROR(ReadRangesOfFile(path, array, positions, reads, out));
  }
  return out;
}

Result<std::string> ReadDecodedChunk(const ReferenceSet& refs, const ArrayRefs& array, size_t i,
                                     const Pipeline& pipeline, uint64_t expected_size,
                                     const UrlToPath& url_to_path) {
  KERCHUNK_ASSIGN_OR_RETURN(std::string stored, ReadStoredChunk(refs, array, i, url_to_path));
  return pipeline.Decode(stored, expected_size).Annotate(ChunkContext(array, i));
}

Result<std::vector<std::string>> ReadDecodedChunks(const ReferenceSet& refs, const ArrayRefs& array,
                                                   std::span<const size_t> positions,
                                                   const Pipeline& pipeline, uint64_t expected_size,
                                                   const UrlToPath& url_to_path,
                                                   uint64_t keep_bytes) {
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> chunks,
                            ReadStoredChunks(refs, array, positions, url_to_path));
  for (size_t k = 0; k < chunks.size(); ++k) {
    KERCHUNK_ASSIGN_OR_RETURN(chunks[k], pipeline.DecodePrefix(chunks[k], expected_size, keep_bytes)
                                             .Annotate(ChunkContext(array, positions[k])));
  }
  return chunks;
}

}  // namespace kerchunk::codecs
