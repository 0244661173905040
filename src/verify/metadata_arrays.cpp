// One .zarray: the metadata rules, then what its chunks must look like.
#include <fmt/format.h>

#include "verify/metadata_internal.h"

namespace kerchunk::verify::internal {
namespace {

// Exact stored size of a chunk when every codec's output size follows from its input size.
std::optional<uint64_t> FixedStoredSize(const codecs::Pipeline& pipeline, uint64_t decoded) {
  if (pipeline.is_object()) return std::nullopt;
  uint64_t size = decoded;
  for (const auto& codec : pipeline.codecs()) {
    std::optional<uint64_t> next = codec->EncodedSize(size);
    if (!next) return std::nullopt;
    size = *next;
  }
  return size;
}

std::optional<uint64_t> DecodedSize(const ZarrArrayMeta& meta, const DtypeInfo& dtype) {
  if (dtype.kind == 'O' || dtype.itemsize == 0) return std::nullopt;
  uint64_t n = dtype.itemsize;
  for (uint64_t c : meta.chunks) {
    std::optional<uint64_t> next = CheckedMul(n, c);
    if (!next) return std::nullopt;
    n = *next;
  }
  return n;
}

// Sets the sizes and the pipeline of an array whose metadata is valid.
void DescribeChunks(ArrayInfo& info) {
  info.decoded_size = DecodedSize(*info.meta, *info.dtype);
  Result<codecs::Pipeline> pipeline = codecs::Pipeline::FromZarray(*info.meta);
  if (!pipeline.ok()) {
    info.pipeline_error = pipeline.status().message();
    return;
  }
  info.pipeline = std::make_shared<const codecs::Pipeline>(*std::move(pipeline));
  if (info.decoded_size) info.stored_size = FixedStoredSize(*info.pipeline, *info.decoded_size);
}

}  // namespace

ArrayInfo AnalyzeZarray(std::string path, const Entry& entry, const ArrayRefs* refs, CaseLog& log) {
  ArrayInfo info;
  info.path = std::move(path);
  info.refs = refs;
  log.Examined();
  auto fail = [&](std::string_view why) {
    log.Fail(entry.key, fmt::format("{}: {}", entry.key, why));
    return info;
  };
  std::optional<std::string_view> text = MetadataText(entry);
  if (!text) return fail("expected a JSON document, got a byte-range reference");
  Result<ZarrArrayMeta> meta = ZarrArrayMeta::Parse(*text);
  if (!meta.ok()) return fail(meta.status().message());
  info.meta = *std::move(meta);
  Result<DtypeInfo> dtype = ParseDtype(info.meta->dtype_json);
  if (!dtype.ok()) return fail(dtype.status().message());
  info.dtype = *dtype;
  if (Status s = CheckFillValue(info.meta->fill_value, *info.dtype); !s.ok()) {
    return fail(fmt::format("{} for dtype {}", s.message(), info.meta->dtype));
  }
  if (Status s = CheckCodecs(*info.meta, *info.dtype); !s.ok()) return fail(s.message());
  Result<ChunkGrid> grid = info.meta->Grid();
  if (!grid.ok()) return fail(grid.status().message());
  info.grid = *std::move(grid);
  if (refs && !(refs->grid() == *info.grid)) {
    return fail("the reader's chunk grid differs from the one of the .zarray (internal error)");
  }
  info.valid = true;
  DescribeChunks(info);
  return info;
}

}  // namespace kerchunk::verify::internal
