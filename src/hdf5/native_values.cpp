// Values the native translation reads from the file itself: variable-length strings and
// sequences (embedded as JSON), DIMENSION_LIST object references, fill values. Mirrors
// dataset_translator_values.cpp, dataset_translator_dims.cpp and dataset_translator_fill.cpp
// (the libhdf5 oracle).
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "hdf5/chunk_references.h"
#include "hdf5/native_translator.h"
#include "hdf5/native_types.h"
#include "hdf5/zarr_filters.h"
#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/hdf5/chunk_index.h"
#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/fill_value.h"
#include "kerchunk/hdf5/filter_pipeline.h"
#include "kerchunk/hdf5/global_heap.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/base64.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::hdf5::internal {
namespace {

// The bytes of one variable-length element's data ({} for a null element).
Result<std::span<const std::byte>> VlenData(const File& file, GlobalHeapReader& heap, ByteReader& r,
                                            uint64_t item_size, uint64_t* length_out) {
  KERCHUNK_ASSIGN_OR_RETURN(auto element, ReadVlenElement(file, r));
  const auto [length, id] = element;
  *length_out = length;
  if (length == 0 || id.collection == kUndefinedAddress || id.collection == 0) {
    return std::span<const std::byte>();
  }
  KERCHUNK_ASSIGN_OR_RETURN(std::span<const std::byte> data, heap.Object(id));
  const auto needed = CheckedMul(length, item_size);
  if (!needed || *needed > data.size()) {
    return DataLossError(
        "global heap object {} at address {}: {} bytes hold fewer than {} "
        "elements of {} bytes",
        id.index, id.collection, data.size(), length, item_size);
  }
  return data.first(*needed);
}

// Every stored element of a dataset as raw bytes (count * type.size), unwritten chunks zero
// (a null variable-length element). Sets the fallback reason for what libhdf5 must decode.
Result<std::string> RawElements(NativeContext& context, const DataObject& o, const Datatype& type,
                                const Dataspace& space, const std::string& fill,
                                const std::string& path) {
  const std::vector<uint64_t>& dims = space.dims;
  const File& file = *context.file;
  KERCHUNK_ASSIGN_OR_RETURN(DataLayout layout, DecodeDataLayout(file, *o.layout));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t count, space.ElementCount());
  // An element holds at least its length and heap ID; elements are counted by dividing by this.
  if (type.size == 0) return DataLossError("variable-length datatype of 0 bytes");
  // The elements are read into memory whole (each then becomes a JSON value): a hostile
  // dataspace or element size must be refused before that, not exhaust memory (a fuzzed file
  // asked for 12 GB).
  const auto total = CheckedMul(count, type.size);
  if (!total || *total > kMaxEmbeddedRawBytes) {
    context.policy_error = true;
    return UnsupportedError(
        "{} variable-length elements of {} bytes: more than the {} bytes this scan embeds", count,
        type.size, kMaxEmbeddedRawBytes);
  }
  std::string raw(*total, '\0');
  if (fill.size() == type.size) {
    for (uint64_t i = 0; i < count; ++i) raw.replace(i * type.size, type.size, fill);
  }
  auto copy = [&](std::span<const std::byte> from) {
    std::memcpy(raw.data(), from.data(), std::min<uint64_t>(from.size(), raw.size()));
  };
  switch (layout.layout_class) {
    case LayoutClass::kCompact:
      if (layout.compact_size < raw.size()) {
        return DataLossError("compact data at address {}: {} bytes, expected {}",
                             layout.compact_offset, layout.compact_size, raw.size());
      }
      copy(file.bytes().subspan(layout.compact_offset, raw.size()));
      return raw;
    case LayoutClass::kContiguous: {
      if (layout.data_address == kUndefinedAddress) return raw;
      KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                                file.ReaderAt(layout.data_address, raw.size(), "contiguous data"));
      copy(r.bytes());
      return raw;
    }
    case LayoutClass::kVirtual:
      context.fallback_reason = fmt::format("dataset /{}: virtual layout", path);
      return raw;
    case LayoutClass::kChunked:
      break;
  }
  // Chunked: decode each chunk (through the numcodecs equivalents of its filters) and copy its
  // in-bounds part into place.
  FilterPipeline pipeline;
  if (o.filter_pipeline) {
    KERCHUNK_ASSIGN_OR_RETURN(
        std::vector<FilterDescription> filters,
        DecodeFilterPipeline(o.filter_pipeline->Reader("filter pipeline message")));
    pipeline = MapFilters(filters, type.size);
    if (!pipeline.unsupported_reason.empty()) {
      context.fallback_reason = fmt::format("dataset /{}: {}", path, pipeline.unsupported_reason);
      return raw;
    }
  }
  KERCHUNK_ASSIGN_OR_RETURN(
      auto codecs, codecs::Pipeline::FromConfigs(json::Value::Null(), pipeline.filters, "|u1"));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t chunk_bytes, layout.ChunkBytes());
  const size_t rank = dims.size();
  ChunkedDatasetInfo info{o.address, dims, space.max_dims};
  KERCHUNK_RETURN_IF_ERROR(WalkChunkIndex(
      file, layout, info,
      [&](std::span<const uint64_t> coords, uint64_t offset, uint64_t size,
          uint32_t mask) -> Status {
        if (mask != 0) {
          context.fallback_reason =
              fmt::format("dataset /{}: a chunk stored with filter mask 0x{:x}", path, mask);
          return OkStatus();
        }
        if (!RangeWithin(offset, size, file.bytes().size())) {
          return DataLossError("chunk at offset {} with {} bytes lies past the end of the file",
                               offset, size);
        }
        std::string_view stored(reinterpret_cast<const char*>(file.bytes().data()) + offset, size);
        if (pipeline.fletcher32 && stored.size() >= 4) stored.remove_suffix(4);
        KERCHUNK_ASSIGN_OR_RETURN(std::string chunk, codecs.Decode(stored, chunk_bytes));
        // Row-major copy of the chunk's elements that lie inside the dataset.
        std::vector<uint64_t> index(rank, 0);
        const uint64_t elements = chunk_bytes / type.size;
        for (uint64_t e = 0; e < elements; ++e) {
          uint64_t linear = 0;
          bool inside = true;
          for (size_t d = 0; d < rank; ++d) {
            const uint64_t g = coords[d] * layout.chunk_dims[d] + index[d];
            if (g >= dims[d]) inside = false;
            linear = linear * dims[d] + g;
          }
          if (inside) {
            std::memcpy(raw.data() + linear * type.size, chunk.data() + e * type.size, type.size);
          }
          for (size_t d = rank; d-- > 0;) {
            if (++index[d] < layout.chunk_dims[d]) break;
            index[d] = 0;
          }
        }
        return OkStatus();
      }));
  return raw;
}

json::Value NumberValue(std::span<const std::byte> e, const Datatype& base) {
  if (base.type_class == DatatypeClass::kFloatingPoint) {
    return json::Value::Double(FloatValue(e, base).value_or(std::nan("")));
  }
  return IntegerValue(e, base);
}

// The values a dataset's elements point to, added up. Many elements may point to the same
// global heap object, so a small file can describe gigabytes of values; they are embedded in
// the references as JSON, up to the same limit as the elements themselves.
Status CheckEmbeddedTotal(NativeContext& context, uint64_t total) {
  if (total <= kMaxEmbeddedRawBytes) return OkStatus();
  context.policy_error = true;
  return UnsupportedError("variable-length values of more than the {} bytes this scan embeds",
                          kMaxEmbeddedRawBytes);
}

}  // namespace

Result<std::vector<std::string>> ReadVlenStrings(NativeContext& context,
                                                 std::span<const std::byte> data, uint64_t count,
                                                 uint64_t data_offset) {
  const File& file = *context.file;
  ByteReader r(data, data_offset, "variable-length string data");
  GlobalHeapReader& heap = context.GlobalHeap();
  std::vector<std::string> out;
  out.reserve(count);
  uint64_t total = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t length = 0;
    KERCHUNK_ASSIGN_OR_RETURN(auto bytes, VlenData(file, heap, r, 1, &length));
    std::string_view s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    out.emplace_back(s.substr(0, s.find('\0')));
    total += out.back().size();
    KERCHUNK_RETURN_IF_ERROR(CheckEmbeddedTotal(context, total));
  }
  return out;
}

Result<std::vector<json::Value>> ReadNativeVlenValues(NativeContext& context, const DataObject& o,
                                                      const Datatype& type, const Dataspace& space,
                                                      const std::string& path) {
  std::string fill_bytes;
  if (o.fill_value || o.fill_value_old) {
    KERCHUNK_ASSIGN_OR_RETURN(
        FillValue fill,
        ResolveFillValue(
            o.fill_value ? std::optional(o.fill_value->Reader("fill value message")) : std::nullopt,
            o.fill_value_old ? std::optional(o.fill_value_old->Reader("fill value message"))
                             : std::nullopt));
    // A variable-length fill value is stored as an element (length and heap ID).
    if (fill.state == FillValueState::kUserDefined) fill_bytes = fill.value;
  }
  KERCHUNK_ASSIGN_OR_RETURN(std::string raw,
                            RawElements(context, o, type, space, fill_bytes, path));
  if (!context.fallback_reason.empty()) return std::vector<json::Value>{};
  const uint64_t count = raw.size() / type.size;
  const auto bytes = std::as_bytes(std::span(raw));
  std::vector<json::Value> values;
  values.reserve(count);
  if (type.vlen_string) {
    KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> strings,
                              ReadVlenStrings(context, bytes, count, 0));
    for (std::string& s : strings)
      values.push_back(json::Value::String(json::ToValidUtf8(std::move(s))));
    return values;
  }
  const Datatype& base = type.base.at(0);
  ByteReader r(bytes, 0, "variable-length sequence data");
  GlobalHeapReader& heap = context.GlobalHeap();
  uint64_t total = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t length = 0;
    KERCHUNK_ASSIGN_OR_RETURN(auto data, VlenData(*context.file, heap, r, base.size, &length));
    total += data.size();
    KERCHUNK_RETURN_IF_ERROR(CheckEmbeddedTotal(context, total));
    json::Value list = json::Value::MakeArray();
    for (uint64_t k = 0; k * base.size < data.size(); ++k) {
      list.Push(NumberValue(data.subspan(k * base.size, base.size), base));
    }
    values.push_back(std::move(list));
  }
  return values;
}

// ---- DIMENSION_LIST ----------------------------------------------------------------------

namespace {

const Attribute* FindAttribute(const std::vector<Attribute>& attributes, std::string_view name) {
  for (const Attribute& a : attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

// The object references attached to each dimension; nullopt (with the fallback reason set)
// for what only libhdf5 can tell.
Result<std::optional<std::vector<std::vector<uint64_t>>>> ReadDimensionList(
    NativeContext& context, const Attribute& a, size_t rank, const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t n, a.space.ElementCount());
  if (n != rank) return DataLossError("DIMENSION_LIST has {} entries for {} dimensions", n, rank);
  const Datatype& t = a.type;
  if (t.type_class != DatatypeClass::kVariableLength || t.vlen_string ||
      t.base.at(0).type_class != DatatypeClass::kReference || t.base[0].reference_type != 0) {
    context.fallback_reason =
        fmt::format("dataset /{}: DIMENSION_LIST is not a list of object references", path);
    return std::optional<std::vector<std::vector<uint64_t>>>();
  }
  const unsigned o = context.file->offset_size();
  ByteReader r(a.data, a.data_offset, "DIMENSION_LIST");
  std::vector<std::vector<uint64_t>> out(rank);
  GlobalHeapReader& heap = context.GlobalHeap();
  for (size_t d = 0; d < rank; ++d) {
    uint64_t length = 0;
    auto data = VlenData(*context.file, heap, r, o, &length);
    if (!data.ok()) {
      context.fallback_reason =
          fmt::format("dataset /{}: DIMENSION_LIST unreadable: {}", path, data.status().message());
      return std::optional<std::vector<std::vector<uint64_t>>>();
    }
    ByteReader refs(*data, 0, "DIMENSION_LIST references");
    for (uint64_t k = 0; k < length && refs.remaining() >= o; ++k) {
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t address, refs.UVar(o, "object reference"));
      out[d].push_back(address);
    }
  }
  return std::optional(std::move(out));
}

}  // namespace

Result<json::Value> NativeArrayDimensions(NativeContext& context,
                                          const std::vector<Attribute>& attributes,
                                          const std::string& path, size_t rank,
                                          const AttributeSet& set) {
  json::Value dims = json::Value::MakeArray();
  std::vector<std::vector<uint64_t>> scales(rank);
  if (set.has_dimension_list && rank > 0) {
    const Attribute* a = FindAttribute(attributes, "DIMENSION_LIST");
    auto list = ReadDimensionList(context, *a, rank, path);
    if (!context.fallback_reason.empty()) return dims;
    if (list.ok()) {
      scales = std::move(**list);
    } else {
      context.result->warnings.push_back(
          fmt::format("dataset /{}: DIMENSION_LIST ignored: {}", path, list.status().message()));
    }
  }
  for (size_t d = 0; d < rank; ++d) {
    if (!scales[d].empty() && (scales[d].size() == 1 || !set.is_dimension_scale)) {
      if (scales[d].size() > 1) {
        context.result->warnings.push_back(fmt::format(
            "dataset /{}: {} dimension scales attached to dimension {}; using the first", path,
            scales[d].size(), d));
      }
      auto it = context.object_paths.find(scales[d][0]);
      if (it == context.object_paths.end()) {
        // libhdf5 names such an object by searching the file (H5Iget_name).
        context.fallback_reason = fmt::format(
            "dataset /{}: dimension {} refers to an object no hard link reaches", path, d);
        return dims;
      }
      dims.Push(json::Value::String(it->second));
    } else if (set.is_dimension_scale) {
      dims.Push(json::Value::String(path));
    } else {
      dims.Push(json::Value::String(fmt::format("phony_dim_{}", d)));
    }
  }
  return dims;
}

// ---- fill value --------------------------------------------------------------------------

namespace {

// `v` stored in the byte order and width of the integer or float dtype ("<i2", ">f4").
std::string StoreNumber(double as_double, int64_t as_int, uint64_t as_uint, bool from_integer,
                        bool from_signed, std::string_view dtype) {
  const size_t size = DtypeItemSize(dtype).value_or(8);
  uint64_t bits = 0;
  if (dtype[1] == 'f') {
    if (size == 4) {
      const float f = from_integer
                          ? (from_signed ? static_cast<float>(as_int) : static_cast<float>(as_uint))
                          : static_cast<float>(as_double);
      bits = std::bit_cast<uint32_t>(f);
    } else {
      const double d =
          from_integer ? (from_signed ? static_cast<double>(as_int) : static_cast<double>(as_uint))
                       : as_double;
      bits = std::bit_cast<uint64_t>(d);
    }
  } else if (from_integer) {
    bits = from_signed ? static_cast<uint64_t>(as_int) : as_uint;
  } else {
    bits = dtype[1] == 'i' ? static_cast<uint64_t>(static_cast<int64_t>(as_double))
                           : static_cast<uint64_t>(as_double);
  }
  std::string out(size, '\0');
  for (size_t i = 0; i < size; ++i) {
    const size_t at = dtype[0] == '>' ? size - 1 - i : i;
    out[at] = static_cast<char>((bits >> (8 * i)) & 0xFF);
  }
  return out;
}

// The _FillValue attribute converted to the dataset's type (FillValueAttribute in the oracle).
Result<json::Value> FillValueAttribute(NativeContext& context, const Attribute& a,
                                       const Datatype& type, const NumpyType& numpy,
                                       const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t n, a.space.ElementCount());
  if (n < 1) return InvalidArgumentError("_FillValue has no value");
  const DatatypeClass cls = a.type.IsVlenString() ? DatatypeClass::kString : a.type.type_class;
  const std::string& dtype = numpy.dtype;
  auto fallback = [&](std::string_view why) -> Result<json::Value> {
    context.fallback_reason = fmt::format("dataset /{}: _FillValue {}", path, why);
    return json::Value::Null();
  };
  if (IsCompoundNumpyType(numpy)) {
    if (!SameDatatype(a.type, type)) return InvalidArgumentError("{}", kCompoundFillMismatch);
    const std::string raw(reinterpret_cast<const char*>(a.data.data()), a.type.size);
    return EncodeTypedFillValue(raw, numpy);
  }
  if (numpy.type_class == TypeClass::kFixedString) {
    if (cls != DatatypeClass::kString) return InvalidArgumentError("_FillValue is not a string");
    if (a.type.IsVlenString()) return fallback("is a variable-length string");
    const std::string_view e(reinterpret_cast<const char*>(a.data.data()), a.type.size);
    const bool same = a.type.size == type.size && a.type.padding == type.padding &&
                      a.type.charset == type.charset;
    return StringFillValue(same ? std::string(e)
                                : ConvertFixedString(e, a.type.padding, type.size, type.padding));
  }
  if (cls != DatatypeClass::kFixedPoint && cls != DatatypeClass::kFloatingPoint &&
      cls != DatatypeClass::kEnum) {
    return InvalidArgumentError("_FillValue is not a number");
  }
  if (SameDatatype(a.type, type) && numpy.type_class != TypeClass::kFixedString) {
    // The attribute has the dataset's own type: libhdf5 copies the bytes (netCDF enums).
    const bool integer_dtype = dtype.size() > 1 && (dtype[1] == 'i' || dtype[1] == 'u');
    if (cls != DatatypeClass::kEnum && integer_dtype) {
      const std::optional<double> v =
          cls == DatatypeClass::kFloatingPoint ? FloatValue(a.data, a.type) : std::nullopt;
      if (v && !FitsIntegerDtype(*v, dtype)) return fallback("does not fit");
    }
    const std::string raw(reinterpret_cast<const char*>(a.data.data()), a.type.size);
    return EncodeFillValue(raw, dtype);
  }
  if (cls == DatatypeClass::kEnum || type.type_class == DatatypeClass::kEnum ||
      numpy.type_class != TypeClass::kNumeric || dtype == "<f2" || dtype == ">f2") {
    return fallback("needs a conversion libhdf5 does");
  }
  const auto first = a.data.first(a.type.size);
  double as_double = 0;
  int64_t as_int = 0;
  uint64_t as_uint = 0;
  const bool from_integer = cls == DatatypeClass::kFixedPoint;
  if (from_integer) {
    if (a.type.size > 8) return fallback("is an integer wider than 8 bytes");
    json::Value v = IntegerValue(first, a.type);
    if (v.type() == json::Value::Type::kInt) {
      as_int = v.as_int();
      as_uint = static_cast<uint64_t>(as_int);
      as_double = static_cast<double>(as_int);
    } else {
      as_uint = v.as_uint();
      as_double = static_cast<double>(as_uint);
    }
  } else {
    std::optional<double> v = FloatValue(first, a.type);
    if (!v) return fallback("has a float layout libhdf5 converts");
    as_double = *v;
  }
  if (dtype[1] == 'i' || dtype[1] == 'u') {
    if (!FitsIntegerDtype(as_double, dtype)) {
      json::Value shown = json::Value::Double(as_double);
      return InvalidArgumentError("_FillValue {} does not fit dtype {}", shown.Dump(), dtype);
    }
  }
  const bool from_signed = a.type.is_signed;
  return EncodeFillValue(StoreNumber(as_double, as_int, as_uint, from_integer, from_signed, dtype),
                         dtype);
}

Result<json::Value> HdfFillValue(const DataObject& o, const Datatype& type,
                                 const NumpyType& numpy) {
  std::optional<ByteReader> fresh, old;
  if (o.fill_value) fresh = o.fill_value->Reader("fill value message");
  if (o.fill_value_old) old = o.fill_value_old->Reader("old fill value message");
  KERCHUNK_ASSIGN_OR_RETURN(FillValue fill, ResolveFillValue(fresh, old));
  if (fill.state == FillValueState::kUndefined) return json::Value::Null();
  std::string raw = fill.value;
  raw.resize(type.size, '\0');
  return EncodeTypedFillValue(raw, numpy);
}

}  // namespace

Result<json::Value> NativeFillValue(NativeContext& context, const DataObject& o,
                                    const Datatype& type, const NumpyType& numpy,
                                    const std::vector<Attribute>& attributes,
                                    const AttributeSet& set, const std::string& path) {
  return KerchunkFillValue(
      numpy, set, [&] { return HdfFillValue(o, type, numpy); },
      [&] {
        // A fallback (set by the conversion) discards the translation: its value is moot.
        return FillValueAttribute(context, *FindAttribute(attributes, "_FillValue"), type, numpy,
                                  path);
      },
      context.result->warnings, path);
}

}  // namespace kerchunk::hdf5::internal
