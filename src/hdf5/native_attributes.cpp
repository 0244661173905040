// Attributes -> .zattrs on the native reader, mirroring attributes_transfer.cpp (the libhdf5
// oracle): strings decoded as h5py reads them, numbers as numpy's tolist(), netCDF/HDF5
// bookkeeping attributes left out.
#include <fmt/format.h>

#include <optional>

#include "hdf5/native_translator.h"
#include "hdf5/native_types.h"

namespace kerchunk::hdf5::internal {
namespace {

std::span<const std::byte> Element(const Attribute& a, uint64_t i) {
  return a.data.subspan(i * a.type.size, a.type.size);
}

Result<std::vector<std::string>> AttributeStrings(NativeContext& context, const Attribute& a,
                                                  uint64_t count) {
  if (a.type.type_class == DatatypeClass::kVariableLength) {
    return ReadVlenStrings(context, a.data, count, a.data_offset);
  }
  std::vector<std::string> out;
  out.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    const auto e = Element(a, i);
    out.push_back(FixedStringValue(
        std::string_view(reinterpret_cast<const char*>(e.data()), e.size()), a.type.padding));
  }
  return out;
}

// ReadNumbers of the oracle: floats through double, integers through (unsigned) long long,
// enums and bitfields as their raw integers (booleans for h5py's boolean enum).
Result<std::vector<json::Value>> AttributeNumbers(NativeContext& context, const Attribute& a,
                                                  uint64_t count) {
  std::vector<json::Value> out;
  out.reserve(count);
  const Datatype& t = a.type;
  if (t.type_class == DatatypeClass::kFloatingPoint) {
    for (uint64_t i = 0; i < count; ++i) {
      std::optional<double> v = FloatValue(Element(a, i), t);
      if (!v) {
        context.fallback_reason = fmt::format(
            "attribute '{}': a float layout libhdf5 converts and this reader does not", a.name);
        return out;
      }
      out.push_back(json::Value::Double(*v));
    }
    return out;
  }
  if (t.type_class == DatatypeClass::kFixedPoint) {
    if (t.size > 8) {
      context.fallback_reason = fmt::format("attribute '{}': integer of {} bytes", a.name, t.size);
      return out;
    }
    for (uint64_t i = 0; i < count; ++i) out.push_back(IntegerValue(Element(a, i), t));
    return out;
  }
  // Enum or bitfield: raw values, decoded by hand.
  const Datatype& base = t.type_class == DatatypeClass::kEnum ? t.base.at(0) : t;
  if (t.size == 0 || t.size > 8) return UnsupportedError("integer of {} bytes", t.size);
  const bool as_bool = IsBoolEnum(t);
  const bool is_signed = base.type_class == DatatypeClass::kFixedPoint && base.is_signed &&
                         t.type_class != DatatypeClass::kBitfield;
  const bool big = base.byte_order == ByteOrder::kBig;
  for (uint64_t i = 0; i < count; ++i) {
    out.push_back(RawIntegerAttributeValue(Element(a, i), big, is_signed, as_bool));
  }
  return out;
}

// The value kerchunk stores for one attribute; nullopt when it leaves the attribute out.
Result<std::optional<json::Value>> ConvertAttribute(NativeContext& context, const Attribute& a,
                                                    AttributeSet& set) {
  if (a.space.space_class == DataspaceClass::kNull) return std::optional(json::Value::String(""));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t count, a.space.ElementCount());
  const bool scalar = a.space.space_class == DataspaceClass::kScalar;
  const DatatypeClass cls = a.type.type_class;
  std::vector<json::Value> values;
  if (cls == DatatypeClass::kString || a.type.IsVlenString()) {
    KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> strings,
                              AttributeStrings(context, a, count));
    if (scalar)
      return ScalarStringAttribute(std::move(strings.at(0)), cls == DatatypeClass::kString);
    for (std::string& s : strings)
      values.push_back(json::Value::String(json::ToValidUtf8(std::move(s))));
  } else if (cls == DatatypeClass::kFixedPoint || cls == DatatypeClass::kFloatingPoint ||
             cls == DatatypeClass::kEnum || cls == DatatypeClass::kBitfield) {
    KERCHUNK_ASSIGN_OR_RETURN(values, AttributeNumbers(context, a, count));
    if (!context.fallback_reason.empty()) return std::optional<json::Value>();
  } else {
    set.skipped.push_back(fmt::format("attribute '{}': {}", a.name, DatatypeClassName(cls)));
    return std::optional<json::Value>();
  }
  return ShapeAttributeValues(a.name, std::move(values), a.space.dims, count);
}

}  // namespace

Result<AttributeSet> ReadNativeAttributes(NativeContext& context,
                                          const std::vector<Attribute>& attributes) {
  AttributeSet set;
  for (const Attribute& a : attributes) {
    const std::string_view n(a.name);
    if (!NoteAttributeName(n, set)) continue;
    auto value = ConvertAttribute(context, a, set);
    if (!context.fallback_reason.empty()) return set;
    if (!value.ok()) {
      set.skipped.push_back(fmt::format("attribute '{}': {}", n, value.status().message()));
      continue;
    }
    StoreAttribute(n, std::move(*value), set);
  }
  return set;
}

bool IsUnlimitedDimensionScaleNative(const Dataspace& space,
                                     const std::vector<Attribute>& attributes) {
  if (space.space_class != DataspaceClass::kSimple || space.dims.size() != 1) return false;
  if (space.max_dims[0] != kUnlimitedExtent) return false;
  for (const Attribute& a : attributes) {
    if (a.name != "CLASS") continue;
    // Read through a 16-byte null-terminated C string: only fixed-length strings convert.
    if (a.type.type_class != DatatypeClass::kString || a.data.size() < a.type.size ||
        a.type.size == 0) {
      return false;
    }
    const std::string_view e(reinterpret_cast<const char*>(a.data.data()), a.type.size);
    std::string value = ConvertFixedString(e, a.type.padding, 16, StringPadding::kNullTerminate);
    value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
    return value == "DIMENSION_SCALE";
  }
  return false;
}

}  // namespace kerchunk::hdf5::internal
