#include "combine/identical_check.h"

#include "kerchunk/codecs/chunk_reader.h"

namespace kerchunk::internal {
namespace {

// One side of the comparison: a part's variable with its decoder.
struct Side {
  const PartView* part;
  const PartVariable* variable;
  codecs::Pipeline pipeline;

  size_t size() const { return variable->refs ? variable->refs->size() : 0; }
};

// Same bytes without reading: the same file range, or equal inline data.
bool SameReference(const Side& a, size_t i, const Side& b, size_t j) {
  ChunkRef x = a.variable->refs->Get(i), y = b.variable->refs->Get(j);
  if (x.kind != y.kind) return false;
  if (x.kind == RefKind::kInline) return x.data == y.data;
  return a.part->refs->urls[x.url] == b.part->refs->urls[y.url] && x.offset == y.offset &&
         x.length == y.length;
}

Result<std::string> Decoded(const Side& s, size_t i, const UrlToPath& url_to_path) {
  KERCHUNK_ASSIGN_OR_RETURN(
      std::string stored, codecs::ReadStoredChunk(*s.part->refs, *s.variable->refs, i, url_to_path)
                              .Annotate(s.part->label));
  if (s.pipeline.is_object()) {
    // Object chunks compare by their items; fold them into one comparable string.
    KERCHUNK_ASSIGN_OR_RETURN(auto items, s.pipeline.DecodeStrings(stored, uint64_t{1} << 30));
    std::string flat;
    for (const auto& v : items.values) {
      flat += v ? "s" + std::to_string(v->size()) + ":" + *v : std::string("n");
    }
    return flat;
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t size, codecs::DecodedChunkSize(s.variable->meta));
  return s.pipeline.Decode(stored, size).Annotate(s.part->label);
}

}  // namespace

Status CheckIdenticalVariable(const PartView& first, const PartView& part, const std::string& path,
                              const UrlToPath& url_to_path) {
  const PartVariable* a = first.Find(path);
  const PartVariable* b = part.Find(path);
  auto differs = [&](std::string_view what) {
    return InvalidArgumentError("{}: variable \"{}\" differs from the first part ({}): {}",
                                part.label, path, first.label, what);
  };
  if (a->meta.shape != b->meta.shape || a->meta.chunks != b->meta.chunks ||
      a->meta.dtype != b->meta.dtype) {
    return differs("shape, chunks or dtype");
  }
  KERCHUNK_ASSIGN_OR_RETURN(auto pa, codecs::Pipeline::FromZarray(a->meta).Annotate(first.label));
  KERCHUNK_ASSIGN_OR_RETURN(auto pb, codecs::Pipeline::FromZarray(b->meta).Annotate(part.label));
  Side x{&first, a, std::move(pa)}, y{&part, b, std::move(pb)};
  if (x.size() != y.size()) {
    return differs(fmt::format("{} chunks instead of {}", y.size(), x.size()));
  }
  for (size_t i = 0; i < x.size(); ++i) {
    uint64_t chunk = a->refs->chunk_index(i);
    std::string key = a->refs->KeyPrefix() + a->refs->grid().Key(chunk);
    if (b->refs->chunk_index(i) != chunk)
      return differs(fmt::format("chunk \"{}\" is missing", key));
    if (SameReference(x, i, y, i)) continue;
    KERCHUNK_ASSIGN_OR_RETURN(std::string va, Decoded(x, i, url_to_path));
    KERCHUNK_ASSIGN_OR_RETURN(std::string vb, Decoded(y, i, url_to_path));
    if (va != vb) return differs(fmt::format("chunk \"{}\" holds other values", key));
  }
  return OkStatus();
}

}  // namespace kerchunk::internal
