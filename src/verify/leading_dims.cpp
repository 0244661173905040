#include "verify/leading_dims.h"

namespace kerchunk::verify::internal {

LeadingDimsDataset::LeadingDimsDataset(SourceDataset& inner, size_t leading)
    : inner_(inner), leading_(leading), shape_(leading, 1) {
  shape_.insert(shape_.end(), inner.shape().begin(), inner.shape().end());
}

Result<std::optional<StoredLocation>> LeadingDimsDataset::Locate(std::span<const uint64_t> start) {
  return inner_.Locate(start.subspan(leading_));
}

Result<std::optional<std::vector<uint64_t>>> LeadingDimsDataset::FindChunkAt(uint64_t offset,
                                                                             uint64_t limit) {
  KERCHUNK_ASSIGN_OR_RETURN(auto found, inner_.FindChunkAt(offset, limit));
  if (found) found->insert(found->begin(), leading_, 0);
  return found;
}

Status LeadingDimsDataset::Read(std::span<const uint64_t> start, std::span<const uint64_t> count,
                                const DtypeInfo& dtype, std::string& out) {
  return inner_.Read(start.subspan(leading_), count.subspan(leading_), dtype, out);
}

Result<std::vector<std::optional<std::string>>> LeadingDimsDataset::ReadStrings(
    std::span<const uint64_t> start, std::span<const uint64_t> count) {
  return inner_.ReadStrings(start.subspan(leading_), count.subspan(leading_));
}

Result<size_t> LeadingDims(size_t file_rank, const std::vector<uint64_t>& chunks) {
  if (file_rank > chunks.size()) {
    return InvalidArgumentError("rank {}, the zarr array {}", file_rank, chunks.size());
  }
  const size_t leading = chunks.size() - file_rank;
  for (size_t d = 0; d < leading; ++d) {
    if (chunks[d] != 1) {
      return InvalidArgumentError(
          "rank {}, the zarr array {}, whose leading dimension {} has chunk extent {}, not 1",
          file_rank, chunks.size(), d, chunks[d]);
    }
  }
  return leading;
}

}  // namespace kerchunk::verify::internal
