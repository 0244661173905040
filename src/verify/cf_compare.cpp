#include "verify/cf_compare.h"

#include <fmt/format.h>

#include <cmath>

#include "codecs/numeric_type.h"

namespace kerchunk::verify::internal {
namespace {

using codecs::internal::NumericType;

// Stored number `i` of `bytes` as a reader of `decoding` takes it (_Unsigned reinterprets
// signed integers).
double Load(const NumericType& type, const char* bytes, uint64_t i, const CfDecoding& decoding) {
  if (decoding.is_unsigned && type.kind == 'i') {
    uint64_t bits = type.LoadBits(bytes, i);
    if (type.size < 8) bits &= (uint64_t{1} << (8 * type.size)) - 1;
    return static_cast<double>(bits);
  }
  return type.LoadDouble(bytes, i);
}

// Readers compare stored numbers with _FillValue and missing_value cast to the variable's type
// (a float64 attribute 1e20 masks the float32 1e20 of a float32 variable).
void CastMaskValues(const NumericType& type, CfDecoding& d) {
  if (type.kind != 'f' || type.size != 4) return;
  auto cast = [](double v) { return static_cast<double>(static_cast<float>(v)); };
  if (d.fill_value) d.fill_value = cast(*d.fill_value);
  for (double& m : d.missing_values) m = cast(m);
}

std::string Shown(const std::optional<double>& v) {
  return v ? json::Value::Double(*v).Dump() : std::string("masked");
}

bool Same(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return !a && !b;
  return *a == *b || (std::isnan(*a) && std::isnan(*b));
}

}  // namespace

Status CompareDecoded(SourceDataset& ds, const ArrayInfo& info, const CfDecoding& index,
                      const ChunkRegion& global, const ChunkRegion& local,
                      const std::string& decoded, const std::string& file, CaseLog& log,
                      const std::string& key) {
  std::optional<NumericType> type = NumericType::Parse(info.meta->dtype);
  if (!type) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(CfDecoding own, ds.Decoding());
  if (!own.fill_value) own.fill_value = index.fill_value;
  CfDecoding ours_decoding = index;
  CastMaskValues(*type, own);
  CastMaskValues(*type, ours_decoding);
  if (own == ours_decoding) return OkStatus();
  uint64_t elements = 1;
  for (uint64_t c : local.count) elements *= c;
  for (uint64_t e = 0; e < elements; ++e) {
    const uint64_t at = ChunkOffsetOf(e, local.count, info.meta->chunks, type->size) / type->size;
    std::optional<double> ours =
        ours_decoding.Decode(Load(*type, decoded.data(), at, ours_decoding));
    std::optional<double> theirs = own.Decode(Load(*type, decoded.data(), at, own));
    if (Same(ours, theirs)) continue;
    std::vector<uint64_t> where = Unravel(e, local.count);
    for (size_t d = 0; d < where.size(); ++d) where[d] += global.start[d];
    log.Fail(key, fmt::format("{}: element ({}) reads as {} through the index's attributes ({}) "
                              "but as {} through those of {} in {} ({})",
                              key, fmt::join(where, ", "), Shown(ours), index.Describe(),
                              Shown(theirs), ds.Describe(), file, own.Describe()));
    return OkStatus();
  }
  return OkStatus();
}

}  // namespace kerchunk::verify::internal
