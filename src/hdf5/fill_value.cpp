// Fill Value messages (old and new); see the specification link in fill_value.h.
#include "kerchunk/hdf5/fill_value.h"

#include <fmt/format.h>

namespace kerchunk::hdf5 {
namespace {

Result<FillValue> ReadValue(ByteReader& r) {
  KERCHUNK_ASSIGN_OR_RETURN(uint32_t size, r.U32("fill value size"));
  KERCHUNK_ASSIGN_OR_RETURN(std::string_view value, r.Chars(size, "fill value"));
  FillValue fill;
  fill.state = size == 0 ? FillValueState::kDefault : FillValueState::kUserDefined;
  fill.value = std::string(value);
  return fill;
}

}  // namespace

Result<FillValue> DecodeFillValue(ByteReader r) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version == 1 || version == 2) {
    // Space allocation time, fill value write time, then whether a value is defined.
    KERCHUNK_RETURN_IF_ERROR(r.Skip(2));
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t defined, r.U8("fill value defined"));
    if (!defined) return FillValue{};
    return ReadValue(r);
  }
  if (version != 3) return r.Error(fmt::format("expected version 1..3, got {}", version));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t flags, r.U8("flags"));
  if (flags & 0x10) return FillValue{};  // "fill value undefined"
  if (flags & 0x20) return ReadValue(r);
  return FillValue{FillValueState::kDefault, {}};
}

Result<FillValue> DecodeOldFillValue(ByteReader r) { return ReadValue(r); }

Result<FillValue> ResolveFillValue(const std::optional<ByteReader>& new_message,
                                   const std::optional<ByteReader>& old_message) {
  if (new_message) return DecodeFillValue(*new_message);
  if (!old_message) return FillValue{};
  KERCHUNK_ASSIGN_OR_RETURN(FillValue fill, DecodeOldFillValue(*old_message));
  // libhdf5 maps an old message's empty value to "undefined".
  if (fill.state == FillValueState::kDefault) fill.state = FillValueState::kUndefined;
  return fill;
}

}  // namespace kerchunk::hdf5
