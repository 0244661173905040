#include "verify/load.h"

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/pack/packed_index.h"

namespace kerchunk::verify::internal {
bool IsPackedFile(const std::string& path) { return pack::IsPackedFile(path); }

bool IsUnreadable(const Status& status) {
  return status.code() == StatusCode::kNotFound || status.code() == StatusCode::kIoError;
}

Result<LoadedReferences> LoadReferences(const std::string& path) {
  LoadedReferences out;
  if (!IsPackedFile(path)) {
    KERCHUNK_ASSIGN_OR_RETURN(out.refs, ReadKerchunkFile(path));
    out.format = "Kerchunk JSON";
    return out;
  }
  Result<pack::PackedIndex> index = pack::PackedIndex::Open(path);
  if (!index.ok()) return std::move(index).status().Annotate("packed file " + path);
  Result<ReferenceSet> refs = index->UnpackAll();
  if (!refs.ok()) return std::move(refs).status().Annotate("packed file " + path);
  out.refs = *std::move(refs);
  out.format = "packed, checksum " + index->checksum().ToString();
  return out;
}

}  // namespace kerchunk::verify::internal
