#include "kerchunk/codecs/chunk_reader.h"

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
  if (ref.kind == RefKind::kWholeFile) return ReadFileToString(path).Annotate(key);
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t file_size, FileSize(path).Annotate(key));
  if (!RangeWithin(ref.offset, ref.length, file_size)) {
    return DataLossError("{}: range [{}, +{}) lies beyond the end of {} ({} bytes)", key(),
                         ref.offset, ref.length, path, file_size);
  }
  return ReadFileRange(path, ref.offset, ref.length).Annotate(key);
}

Result<std::string> ReadDecodedChunk(const ReferenceSet& refs, const ArrayRefs& array, size_t i,
                                     const Pipeline& pipeline, uint64_t expected_size,
                                     const UrlToPath& url_to_path) {
  KERCHUNK_ASSIGN_OR_RETURN(std::string stored, ReadStoredChunk(refs, array, i, url_to_path));
  return pipeline.Decode(stored, expected_size).Annotate(ChunkContext(array, i));
}

}  // namespace kerchunk::codecs
