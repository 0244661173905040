// A file's dataset seen with the leading dimensions a combined index added in front of it: an
// ensemble combined along a new "member" dimension stores member m's tas (time, lat, lon) as
// the chunks [m, ...] of tas (member, time, lat, lon), with chunk extent 1 along "member". The
// file's dataset then reads as if it had a leading dimension of length 1.
#pragma once

#include <cstddef>
#include <vector>

#include "verify/source.h"

namespace kerchunk::verify::internal {

class LeadingDimsDataset : public SourceDataset {
 public:
  /// `leading`: dimensions of length 1 shown in front of `inner`'s.
  LeadingDimsDataset(SourceDataset& inner, size_t leading);

  std::string Describe() const override { return inner_.Describe(); }
  const std::vector<uint64_t>& shape() const override { return shape_; }
  bool fletcher32() const override { return inner_.fletcher32(); }
  Result<std::optional<StoredLocation>> Locate(std::span<const uint64_t> start) override;
  Result<std::optional<uint64_t>> CountChunks() override { return inner_.CountChunks(); }
  Result<std::optional<std::vector<uint64_t>>> FindChunkAt(uint64_t offset,
                                                           uint64_t limit) override;
  Status Read(std::span<const uint64_t> start, std::span<const uint64_t> count,
              const DtypeInfo& dtype, std::string& out) override;
  Result<CfDecoding> Decoding() override { return inner_.Decoding(); }
  Result<std::vector<std::optional<std::string>>> ReadStrings(
      std::span<const uint64_t> start, std::span<const uint64_t> count) override;

 private:
  SourceDataset& inner_;
  size_t leading_;
  std::vector<uint64_t> shape_;
};

/// How many leading dimensions of a zarr array with `chunks` a file's dataset of rank
/// `file_rank` lacks: 0 for equal ranks; InvalidArgument when the file has more dimensions, or
/// when a missing one has chunk extent other than 1 (a chunk would span several files).
Result<size_t> LeadingDims(size_t file_rank, const std::vector<uint64_t>& chunks);

}  // namespace kerchunk::verify::internal
