#include "combine/coordinate.h"

#include <cctype>
#include <cmath>

#include "kerchunk/codecs/chunk_reader.h"
#include "kerchunk/util/checked_math.h"
#include "refs/zarr_dtype.h"

namespace kerchunk::internal {
namespace {

using kerchunk::internal::NumericType;

CoordinateValue Load(const NumericType& t, const char* bytes, uint64_t i) {
  if (t.is_float()) return CoordinateValue::Float(t.LoadDouble(bytes, i));
  if (t.kind == 'u' && t.size == 8) {
    uint64_t u = t.LoadBits(bytes, i);
    if (u > static_cast<uint64_t>(INT64_MAX)) return CoordinateValue::Float(static_cast<double>(u));
    return CoordinateValue::Int(static_cast<int64_t>(u));
  }
  return CoordinateValue::Int(t.LoadSigned(bytes, i));
}

Result<CoordinateValue> FillValue(const PartView& part, const PartVariable& v, uint64_t chunk) {
  const json::Value& f = v.meta.fill_value;
  if (f.type() == json::Value::Type::kInt) return CoordinateValue::Int(f.as_int());
  if (f.is_number()) return CoordinateValue::Float(f.as_double());
  if (f.is_string() && f.as_string() == "NaN") return CoordinateValue::Float(NAN);
  return DataLossError("{}: coordinate \"{}\": chunk {} is missing and there is no fill value",
                       part.label, v.path, chunk);
}

std::string AttrString(const json::Value& attrs, std::string_view name) {
  const json::Value* v = attrs.Find(name);
  return v && v->is_string() ? v->as_string() : std::string();
}

// "<unit> since <date>" in any spelling, parseable or not.
bool LooksLikeTimeUnits(std::string_view units) {
  std::string lower(units);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find(" since ") != std::string::npos;
}

bool Representable(const NumericType& t, const CoordinateValue& v) {
  if (t.is_float()) {
    double d = v.AsDouble();
    if (v.is_int && CoordinateValue::Float(d) != v) return false;  // integer beyond 2^53
    return t.size == 8 || std::isnan(d) || static_cast<double>(static_cast<float>(d)) == d;
  }
  double d = v.AsDouble();
  if (!v.is_int && (std::isnan(d) || std::trunc(d) != d)) return false;
  if (v.is_int) {
    if (t.kind == 'u') return v.i >= 0 && (t.size == 8 || v.i < (int64_t{1} << (8 * t.size)));
    return t.size == 8 ||
           (v.i >= -(int64_t{1} << (8 * t.size - 1)) && v.i < (int64_t{1} << (8 * t.size - 1)));
  }
  return t.IntegerFits(d);
}

void Store(const NumericType& t, char* out, uint64_t i, const CoordinateValue& v) {
  if (t.is_float()) {
    t.StoreDouble(out, i, v.AsDouble());
  } else if (v.is_int) {
    t.StoreBits(out, i, static_cast<uint64_t>(v.i));
  } else if (t.kind == 'u') {
    t.StoreBits(out, i, static_cast<uint64_t>(v.d));
  } else {
    t.StoreBits(out, i, static_cast<uint64_t>(static_cast<int64_t>(v.d)));
  }
}

}  // namespace

Result<ChunksOfArray> ReadChunks(const PartView& part, const PartVariable& v, uint64_t num_chunks,
                                 const codecs::Pipeline& pipeline, uint64_t chunk_bytes,
                                 const UrlToPath& url_to_path, uint64_t keep_bytes) {
  ChunksOfArray out;
  out.slot.resize(num_chunks);
  std::vector<size_t> positions;
  for (uint64_t chunk = 0; chunk < num_chunks && v.refs; ++chunk) {
    if (auto position = v.refs->Find(chunk)) {
      out.slot[chunk] = positions.size();
      positions.push_back(*position);
    }
  }
  if (positions.empty()) return out;
  KERCHUNK_ASSIGN_OR_RETURN(
      out.decoded, codecs::ReadDecodedChunks(*part.refs, *v.refs, positions, pipeline, chunk_bytes,
                                             url_to_path, keep_bytes)
                       .Annotate(part.label));
  return out;
}

Result<std::vector<CoordinateValue>> ReadCoordinateValues(const PartView& part,
                                                          const PartVariable& coordinate,
                                                          const UrlToPath& url_to_path) {
  auto type = NumericType::Parse(coordinate.meta.dtype);
  if (!type) {
    return UnsupportedError("{}: coordinate \"{}\" has dtype {}, expected a number", part.label,
                            coordinate.path, coordinate.meta.dtype);
  }
  KERCHUNK_ASSIGN_OR_RETURN(
      auto pipeline,
      codecs::Pipeline::FromZarray(coordinate.meta).Annotate(part.label + ": " + coordinate.path));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t chunk_bytes, codecs::DecodedChunkSize(coordinate.meta));
  const uint64_t n = coordinate.meta.shape[0];
  const uint64_t extent = coordinate.meta.chunks[0];
  const uint64_t num_chunks = extent == 0 ? 0 : (n + extent - 1) / extent;
  // A coordinate shorter than its one chunk (netCDF-C gives an unlimited 1-D variable 4 MiB
  // chunks) needs only its values decoded.
  const uint64_t keep = std::min(extent, n) * type->size;
  KERCHUNK_ASSIGN_OR_RETURN(ChunksOfArray read, ReadChunks(part, coordinate, num_chunks, pipeline,
                                                           chunk_bytes, url_to_path, keep));
  std::vector<CoordinateValue> values;
  values.reserve(n);
  for (uint64_t chunk = 0; chunk < num_chunks; ++chunk) {
    uint64_t count = std::min(extent, n - chunk * extent);
    const std::string* raw = read.Decoded(chunk);
    if (!raw) {
      KERCHUNK_ASSIGN_OR_RETURN(CoordinateValue fill, FillValue(part, coordinate, chunk));
      values.insert(values.end(), count, fill);
      continue;
    }
    for (uint64_t k = 0; k < count; ++k) values.push_back(Load(*type, raw->data(), k));
  }
  return values;
}

Result<std::vector<CoordinateValue>> ReadArrayValues(const PartView& part, const PartVariable& v,
                                                     const UrlToPath& url_to_path) {
  auto type = NumericType::Parse(v.meta.dtype);
  if (!type) {
    return UnsupportedError("{}: variable \"{}\" has dtype {}, expected a number", part.label,
                            v.path, v.meta.dtype);
  }
  if (v.meta.order != 'C') {
    return UnsupportedError("{}: variable \"{}\" is in Fortran order", part.label, v.path);
  }
  KERCHUNK_ASSIGN_OR_RETURN(
      auto pipeline, codecs::Pipeline::FromZarray(v.meta).Annotate(part.label + ": " + v.path));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t chunk_bytes, codecs::DecodedChunkSize(v.meta));
  KERCHUNK_ASSIGN_OR_RETURN(ChunkGrid grid, v.meta.Grid());
  const std::vector<uint64_t>& shape = v.meta.shape;
  const std::vector<uint64_t>& chunks = v.meta.chunks;
  const size_t rank = shape.size();
  uint64_t total = 1;
  for (uint64_t n : shape) total *= n;
  std::vector<CoordinateValue> out(total);
  if (total == 0) return out;
  KERCHUNK_ASSIGN_OR_RETURN(ChunksOfArray read, ReadChunks(part, v, grid.num_chunks(), pipeline,
                                                           chunk_bytes, url_to_path));
  std::vector<uint64_t> coords(rank), extent(rank), local(rank);
  for (uint64_t chunk = 0; chunk < grid.num_chunks(); ++chunk) {
    grid.Coords(chunk, coords);
    for (size_t d = 0; d < rank; ++d) {
      extent[d] = std::min(chunks[d], shape[d] - coords[d] * chunks[d]);
    }
    const std::string* raw = read.Decoded(chunk);
    CoordinateValue fill;
    if (!raw) {
      KERCHUNK_ASSIGN_OR_RETURN(fill, FillValue(part, v, chunk));
    }
    // Every element of the chunk that lies inside the array, in C order.
    std::fill(local.begin(), local.end(), 0);
    while (true) {
      uint64_t in_chunk = 0, in_array = 0;
      for (size_t d = 0; d < rank; ++d) {
        in_chunk = in_chunk * chunks[d] + local[d];
        in_array = in_array * shape[d] + coords[d] * chunks[d] + local[d];
      }
      out[in_array] = raw ? Load(*type, raw->data(), in_chunk) : fill;
      size_t d = rank;
      while (d > 0 && ++local[d - 1] == extent[d - 1]) local[--d] = 0;
      if (d == 0) break;
    }
  }
  return out;
}

Result<std::optional<CfTimeConversion>> TimeConversion(std::string_view units,
                                                       std::string_view calendar,
                                                       std::string_view to_units,
                                                       std::string_view to_calendar) {
  KERCHUNK_ASSIGN_OR_RETURN(CfCalendar from_calendar, ParseCfCalendar(calendar));
  KERCHUNK_ASSIGN_OR_RETURN(CfCalendar target_calendar, ParseCfCalendar(to_calendar));
  if (from_calendar != target_calendar) return InvalidArgumentError("calendars differ");
  using Conversion = std::optional<CfTimeConversion>;
  if (units == to_units) return Conversion();  // "gregorian" and "standard" are one calendar
  KERCHUNK_ASSIGN_OR_RETURN(CfTimeUnits from, ParseCfTimeUnits(units, from_calendar));
  KERCHUNK_ASSIGN_OR_RETURN(CfTimeUnits to, ParseCfTimeUnits(to_units, target_calendar));
  KERCHUNK_ASSIGN_OR_RETURN(CfTimeConversion conversion, CfTimeConversion::Make(from, to));
  if (conversion.identity()) return Conversion();
  return Conversion(conversion);
}

Status ConvertToFirstUnits(const PartVariable& first, const PartView& part,
                           const PartVariable& coordinate, std::vector<CoordinateValue>& values,
                           std::string& warning) {
  std::string units = AttrString(coordinate.attrs, "units");
  std::string first_units = AttrString(first.attrs, "units");
  std::string calendar = AttrString(coordinate.attrs, "calendar");
  std::string first_calendar = AttrString(first.attrs, "calendar");
  if (units == first_units && calendar == first_calendar) return OkStatus();
  if (!LooksLikeTimeUnits(units) && !LooksLikeTimeUnits(first_units)) {
    // Not CF time units at all (padocc's "None" next to no units): nothing to convert, as
    // MultiZarrToZarr, which never looks at units.
    warning = fmt::format(
        "{}: coordinate \"{}\" has units \"{}\", the first part \"{}\"; the "
        "values are used as they are",
        part.label, coordinate.path, units, first_units);
    return OkStatus();
  }
  auto context = [&] {
    return fmt::format(
        "{}: coordinate \"{}\" (units \"{}\", calendar \"{}\"; first part: \"{}\", "
        "\"{}\")",
        part.label, coordinate.path, units, calendar, first_units, first_calendar);
  };
  KERCHUNK_ASSIGN_OR_RETURN(
      std::optional<CfTimeConversion> conversion,
      TimeConversion(units, calendar, first_units, first_calendar).Annotate(context()));
  if (!conversion) return OkStatus();
  // The bounds variable, if any, is converted with the coordinate (time_bounds.h).
  warning = fmt::format("{}: \"{}\" values converted from \"{}\" to \"{}\"", part.label,
                        coordinate.path, units, first_units);
  for (size_t i = 0; i < values.size(); ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(values[i], conversion->Convert(values[i]).Annotate(
                                             fmt::format("{}, value {}", context(), i)));
  }
  return OkStatus();
}

EncodedCoordinate EncodeCoordinate(std::string_view first_dtype,
                                   const std::vector<CoordinateValue>& values) {
  NumericType type = NumericType::Parse(first_dtype).value_or(NumericType{'f', 8, false});
  std::string dtype(first_dtype);
  auto all = [&](const NumericType& t) {
    for (const auto& v : values) {
      if (!Representable(t, v)) return false;
    }
    return true;
  };
  if (!all(type)) {
    NumericType wide{type.is_float() ? 'f' : 'i', 8, false};
    if (!wide.is_float() && !all(wide)) wide.kind = 'f';
    type = wide;
    dtype = wide.is_float() ? "<f8" : "<i8";
  }
  EncodedCoordinate out{dtype, std::string(values.size() * type.size, '\0')};
  for (size_t i = 0; i < values.size(); ++i) Store(type, out.bytes.data(), i, values[i]);
  return out;
}

}  // namespace kerchunk::internal
