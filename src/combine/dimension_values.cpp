#include "combine/dimension_values.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <regex>

#include "kerchunk/refs/zarr_metadata.h"

namespace kerchunk::internal {
namespace {

std::optional<DimensionValue> FromJson(const json::Value& v) {
  DimensionValue out;
  if (v.is_string()) {
    out.is_string = true;
    out.text = v.as_string();
  } else if (v.type() == json::Value::Type::kInt) {
    out.number = CoordinateValue::Int(v.as_int());
  } else if (v.is_number()) {
    out.number = CoordinateValue::Float(v.as_double());
  } else if (v.is_array() && v.as_array().size() == 1) {
    return FromJson(v.as_array().front());  // a one-element attribute array, as HDF5 stores them
  } else {
    return std::nullopt;
  }
  return out;
}

// `owner`: "" for a global attribute, else "variable \"VAR\"".
Result<DimensionValue> FromAttribute(const PartView& part, const json::Value& attrs,
                                     const std::string& owner, std::string_view name) {
  const json::Value* v = attrs.Find(name);
  if (!v && owner.empty()) {
    return InvalidArgumentError("{}: no global attribute \"{}\"", part.label, name);
  }
  if (!v) return InvalidArgumentError("{}: {} has no attribute \"{}\"", part.label, owner, name);
  auto value = FromJson(*v);
  if (!value) {
    return InvalidArgumentError("{}: {}attribute \"{}\" is {}, expected a string or a number",
                                part.label, owner.empty() ? "global " : owner + " ", name,
                                v->Dump());
  }
  return *value;
}

Result<DimensionValue> FromPath(const PartView& part, const std::regex& pattern,
                                std::string_view regex) {
  if (part.refs->urls.size() == 0) {
    return InvalidArgumentError("{}: no URL to match path:{} against", part.label, regex);
  }
  const std::string& url = part.refs->urls[0];
  std::smatch match;
  if (!std::regex_search(url, match, pattern)) {
    return InvalidArgumentError("{}: path:{} does not match \"{}\"", part.label, regex, url);
  }
  DimensionValue out;
  out.is_string = true;
  out.text = match.size() > 1 ? match[1].str() : match[0].str();
  return out;
}

Result<DimensionValue> ValueOf(const PartView& part, const CoordinateSource& source,
                               const std::regex* pattern) {
  using Kind = CoordinateSource::Kind;
  switch (source.kind) {
    case Kind::kGlobalAttribute: {
      KERCHUNK_ASSIGN_OR_RETURN(json::Value attrs, part.GlobalAttrs());
      return FromAttribute(part, attrs, "", source.name);
    }
    case Kind::kVariableAttribute: {
      const PartVariable* v = part.Find(source.variable);
      if (!v) return InvalidArgumentError("{}: no variable \"{}\"", part.label, source.variable);
      return FromAttribute(part, v->attrs, "variable \"" + source.variable + "\"", source.name);
    }
    case Kind::kPath:
      return FromPath(part, *pattern, source.regex);
    case Kind::kIndex: {
      DimensionValue out;
      out.number = CoordinateValue::Int(static_cast<int64_t>(part.index));
      return out;
    }
    case Kind::kData:
      break;
  }
  return InternalError("data: values are read by the existing-dimension combine");
}

// UTF-8 to code points; nullopt for malformed input.
std::optional<std::u32string> DecodeUtf8(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0) return std::nullopt;
    char32_t cp = extra == 0 ? c : c & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
      if (i + static_cast<size_t>(k) >= s.size()) return std::nullopt;
      auto next = static_cast<unsigned char>(s[i + k]);
      if ((next & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (next & 0x3F);
    }
    out.push_back(cp);
    i += static_cast<size_t>(extra) + 1;
  }
  return out;
}

template <typename T>
void AppendLittleEndian(std::string& out, T value) {
  auto bits = std::bit_cast<std::array<char, sizeof(T)>>(value);
  if constexpr (std::endian::native == std::endian::big) std::reverse(bits.begin(), bits.end());
  out.append(bits.data(), bits.size());
}

// The .zarray of a one-dimensional inline coordinate of `n` values.
std::string CoordinateZarray(uint64_t n, const std::string& dtype) {
  ZarrArrayMeta meta;
  meta.shape = {n};
  meta.chunks = {std::max<uint64_t>(n, 1)};
  meta.dtype = dtype;
  meta.dtype_json = json::Value::String(dtype);
  return meta.Dump();
}

}  // namespace

std::string DimensionValue::Show() const {
  if (is_string) return "\"" + text + "\"";
  return number.is_int ? std::to_string(number.i) : fmt::format("{}", number.d);
}

Result<std::vector<DimensionValue>> NewDimensionValues(const std::vector<PartView>& parts,
                                                       std::string_view dim,
                                                       const CoordinateSource& source) {
  std::optional<std::regex> pattern;
  if (source.kind == CoordinateSource::Kind::kPath) pattern.emplace(source.regex);
  std::vector<DimensionValue> values;
  for (const PartView& part : parts) {
    KERCHUNK_ASSIGN_OR_RETURN(DimensionValue v,
                              ValueOf(part, source, pattern ? &*pattern : nullptr)
                                  .Annotate("values of the new dimension \"{}\"", dim));
    if (!values.empty() && v.is_string != values.front().is_string) {
      return InvalidArgumentError(
          "{}: new dimension \"{}\": value {} is a {}, but the first part's ({}) is a {}",
          part.label, dim, v.Show(), v.is_string ? "string" : "number", values.front().Show(),
          values.front().is_string ? "string" : "number");
    }
    values.push_back(std::move(v));
  }
  return values;
}

Result<StoredValues> StoreDimensionValues(const std::vector<DimensionValue>& values) {
  StoredValues out;
  if (!values.empty() && values.front().is_string) {
    std::vector<std::u32string> decoded;
    size_t width = 1;
    for (const DimensionValue& v : values) {
      auto text = DecodeUtf8(v.text);
      if (!text) return InvalidArgumentError("value {} is not UTF-8", v.Show());
      width = std::max(width, text->size());
      decoded.push_back(std::move(*text));
    }
    out.dtype = fmt::format("<U{}", width);
    for (std::u32string& text : decoded) {
      text.resize(width, U'\0');
      for (char32_t c : text) AppendLittleEndian(out.bytes, static_cast<uint32_t>(c));
    }
    return out;
  }
  bool all_int = std::all_of(values.begin(), values.end(),
                             [](const DimensionValue& v) { return v.number.is_int; });
  out.dtype = all_int ? "<i8" : "<f8";
  for (const DimensionValue& v : values) {
    if (all_int) {
      AppendLittleEndian(out.bytes, v.number.i);
    } else {
      AppendLittleEndian(out.bytes, v.number.AsDouble());
    }
  }
  return out;
}

Status SetDimensionCoordinate(ReferenceSet& refs, const std::string& dim,
                              const std::vector<DimensionValue>& values) {
  KERCHUNK_ASSIGN_OR_RETURN(StoredValues stored,
                            StoreDimensionValues(values).Annotate("dimension \"{}\"", dim));
  refs.SetText(dim + "/.zarray", CoordinateZarray(values.size(), stored.dtype));
  if (!refs.FindEntry(dim + "/.zattrs")) {
    json::Value zattrs = json::Value::MakeObject();
    zattrs.Set("_ARRAY_DIMENSIONS", json::Value::MakeArray({json::Value::String(dim)}));
    refs.SetText(dim + "/.zattrs", zattrs.Dump());
  }
  ChunkGrid grid = ChunkGrid::Make({values.size()}, {std::max<uint64_t>(values.size(), 1)}).value();
  ArrayRefs array(dim, std::move(grid));
  array.AddInline(0, stored.bytes, /*base64=*/true);
  KERCHUNK_RETURN_IF_ERROR(array.Finalize());
  auto it = std::find_if(refs.arrays.begin(), refs.arrays.end(),
                         [&](const ArrayRefs& a) { return a.path() == dim; });
  if (it == refs.arrays.end()) {
    refs.arrays.push_back(std::move(array));
  } else {
    *it = std::move(array);
  }
  return OkStatus();
}

}  // namespace kerchunk::internal

namespace kerchunk {

Result<CoordinateSource> ParseCoordinateSource(std::string_view spec) {
  using Kind = CoordinateSource::Kind;
  auto bad = [&] {
    return InvalidArgumentError(
        "coordinate source \"{}\": expected attr:NAME, vattr:VAR:NAME, path:REGEX, index or "
        "data:VAR",
        spec);
  };
  CoordinateSource out;
  auto after = [&](std::string_view prefix) -> std::optional<std::string_view> {
    if (!spec.starts_with(prefix) || spec.size() == prefix.size()) return std::nullopt;
    return spec.substr(prefix.size());
  };
  if (spec == "index") {
    out.kind = Kind::kIndex;
  } else if (auto name = after("attr:")) {
    out.kind = Kind::kGlobalAttribute;
    out.name = std::string(*name);
  } else if (auto rest = after("vattr:")) {
    size_t colon = rest->find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest->size()) return bad();
    out.kind = Kind::kVariableAttribute;
    out.variable = std::string(rest->substr(0, colon));
    out.name = std::string(rest->substr(colon + 1));
  } else if (auto regex = after("path:")) {
    out.kind = Kind::kPath;
    out.regex = std::string(*regex);
    try {
      std::regex compiled(out.regex);
    } catch (const std::regex_error& e) {
      return InvalidArgumentError(
          "coordinate source \"{}\": the regular expression does not "
          "compile: {}",
          spec, e.what());
    }
  } else if (auto variable = after("data:")) {
    out.kind = Kind::kData;
    out.variable = std::string(*variable);
  } else {
    return bad();
  }
  return out;
}

}  // namespace kerchunk
