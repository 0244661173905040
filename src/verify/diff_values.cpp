#include "verify/diff_values.h"

#include <fmt/format.h>

#include <filesystem>
#include <unordered_map>

#include "kerchunk/json/json_value.h"
#include "verify/catalog.h"

namespace kerchunk::verify::internal {
namespace {

using json::Value;

std::string Shorten(std::string_view s, size_t max = 80) {
  if (s.size() <= max) return std::string(s);
  return std::string(s.substr(0, max)) + "...";
}

// The first place two JSON documents differ, e.g. "\"attrs\".\"units\": \"K\" vs \"kelvin\"".
std::string FirstJsonDifference(const Value& a, const Value& b, const std::string& path) {
  const std::string at = path.empty() ? "" : path + ": ";
  if (a.is_object() && b.is_object()) {
    for (const auto& [k, v] : a.as_object()) {
      const Value* w = b.Find(k);
      const std::string p = path.empty() ? "\"" + k + "\"" : path + ".\"" + k + "\"";
      if (!w) return fmt::format("{} only in the input", p);
      if (!(v == *w)) return FirstJsonDifference(v, *w, p);
    }
    for (const auto& [k, w] : b.as_object()) {
      if (!a.Find(k)) {
        return fmt::format("{} only in the other set",
                           path.empty() ? "\"" + k + "\"" : path + ".\"" + k + "\"");
      }
    }
  }
  if (a.is_array() && b.is_array() && a.as_array().size() == b.as_array().size()) {
    for (size_t i = 0; i < a.as_array().size(); ++i) {
      if (!(a.as_array()[i] == b.as_array()[i])) {
        return FirstJsonDifference(a.as_array()[i], b.as_array()[i],
                                   fmt::format("{}[{}]", path, i));
      }
    }
  }
  return fmt::format("{}{} vs {}", at, Shorten(a.Dump()), Shorten(b.Dump()));
}

// numcodecs json2 output: [items..., "|O", [shape]].
bool IsJson2(std::string_view data) {
  if (!data.starts_with("[") || data.find("\"|O\"") == std::string_view::npos) return false;
  Result<Value> v = Value::Parse(data);
  if (!v.ok() || !v->is_array() || v->as_array().size() < 2) return false;
  const Value& dtype = v->as_array()[v->as_array().size() - 2];
  return dtype.is_string() && dtype.as_string() == "|O" && v->as_array().back().is_array();
}

bool IsInline(const DiffValue& v) {
  return v.kind == DiffValue::Kind::kText || v.kind == DiffValue::Kind::kBytes;
}

// Reads the bytes a range or whole-file value names; nullopt when they cannot be read.
std::optional<std::string> ReadBytes(const DiffValue& v, const DiffSide& side) {
  if (!side.reader) return std::nullopt;
  std::string out;
  Status s = v.kind == DiffValue::Kind::kWholeFile
                 ? side.reader->ReadAll(v.local_url, out)
                 : side.reader->Read(v.local_url, v.offset, v.length, out);
  if (!s.ok()) return std::nullopt;
  return out;
}

}  // namespace

DiffValue FromEntry(const EntryValue& v, const std::vector<uint32_t>& canonical) {
  DiffValue d;
  switch (v.kind) {
    case EntryValue::Kind::kText:
      d.kind = DiffValue::Kind::kText;
      break;
    case EntryValue::Kind::kBase64:
      d.kind = DiffValue::Kind::kBytes;
      break;
    case EntryValue::Kind::kJson:
      d.kind = DiffValue::Kind::kJson;
      break;
    case EntryValue::Kind::kRange:
      d.kind = DiffValue::Kind::kRange;
      break;
    case EntryValue::Kind::kWholeFile:
      d.kind = DiffValue::Kind::kWholeFile;
      break;
  }
  d.data = v.data;
  if (d.kind == DiffValue::Kind::kRange || d.kind == DiffValue::Kind::kWholeFile) {
    d.url = canonical[v.url];
    d.local_url = v.url;
    d.offset = v.offset;
    d.length = v.length;
  }
  return d;
}

DiffValue FromChunk(const ChunkRef& r, const std::vector<uint32_t>& canonical) {
  DiffValue d;
  switch (r.kind) {
    case RefKind::kInline:
      d.kind = r.base64 ? DiffValue::Kind::kBytes : DiffValue::Kind::kText;
      d.data = r.data;
      return d;
    case RefKind::kWholeFile:
      d.kind = DiffValue::Kind::kWholeFile;
      break;
    case RefKind::kRange:
      d.kind = DiffValue::Kind::kRange;
      break;
  }
  d.url = canonical[r.url];
  d.local_url = r.url;
  d.offset = r.offset;
  d.length = r.length;
  return d;
}

CanonicalUrls Canonicalize(const ResolvedFiles& a, const UrlTable& a_urls, const ResolvedFiles& b,
                           const UrlTable& b_urls) {
  CanonicalUrls out;
  std::unordered_map<std::string, uint32_t> ids;
  auto map = [&](const ResolvedFiles& files, const UrlTable& urls, std::vector<uint32_t>& to) {
    for (uint32_t id = 0; id < urls.size(); ++id) {
      std::string name = urls[id];
      if (files.by_url[id].local()) {
        name = std::filesystem::absolute(files.by_url[id].path).lexically_normal().string();
      }
      auto [it, inserted] = ids.try_emplace(name, static_cast<uint32_t>(out.names.size()));
      if (inserted) out.names.push_back(name);
      to.push_back(it->second);
    }
  };
  map(a, a_urls, out.a);
  map(b, b_urls, out.b);
  return out;
}

Verdict CompareValues(std::string_view key, const DiffValue& x, const DiffSide& xs,
                      const DiffValue& y, const DiffSide& ys, std::string& detail) {
  using Kind = DiffValue::Kind;
  const bool x_text = x.kind == Kind::kText || x.kind == Kind::kJson || x.kind == Kind::kBytes;
  const bool y_text = y.kind == Kind::kText || y.kind == Kind::kJson || y.kind == Kind::kBytes;
  if (KindOfKey(key) != MetadataKind::kNone && x_text && y_text) {
    Result<Value> a = Value::Parse(x.data), b = Value::Parse(y.data);
    if (a.ok() && b.ok()) {
      if (*a == *b) return Verdict::kEqual;
      detail = FirstJsonDifference(*a, *b, "");
      return Verdict::kMetadataDiffers;
    }
  }
  if (x_text && y_text) {
    if (x.data == y.data) return Verdict::kEqual;
    // JSON values (kJson) and json2 chunks (an object array's items as JSON) compare by
    // meaning, as zarr decodes them; other data by its bytes.
    if ((x.kind == Kind::kJson && y.kind == Kind::kJson) || (IsJson2(x.data) && IsJson2(y.data))) {
      Result<Value> a = Value::Parse(x.data), b = Value::Parse(y.data);
      if (a.ok() && b.ok() && *a == *b) return Verdict::kEqual;
    }
    return Verdict::kValueDiffers;
  }
  if (x.kind == y.kind) {
    const bool same = x.url == y.url && (x.kind == Kind::kWholeFile ||
                                         (x.offset == y.offset && x.length == y.length));
    return same ? Verdict::kEqual : Verdict::kValueDiffers;
  }
  // Inline data on one side, a range on the other: equal when the range holds the same bytes.
  if (IsInline(x) || IsInline(y)) {
    const DiffValue& inline_value = IsInline(x) ? x : y;
    const DiffValue& range = IsInline(x) ? y : x;
    std::optional<std::string> bytes = ReadBytes(range, IsInline(x) ? ys : xs);
    if (bytes && *bytes == inline_value.data) return Verdict::kEqualBytes;
    if (!bytes) detail = "the range cannot be read to compare its bytes";
  }
  return Verdict::kValueDiffers;
}

std::string Describe(const DiffValue& v, const CanonicalUrls& urls) {
  switch (v.kind) {
    case DiffValue::Kind::kText:
      return fmt::format("inline text \"{}\"", Shorten(v.data));
    case DiffValue::Kind::kJson:
      return "JSON value " + Shorten(v.data);
    case DiffValue::Kind::kBytes:
      return fmt::format("inline ({} bytes)", v.data.size());
    case DiffValue::Kind::kRange:
      return fmt::format("[\"{}\", {}, {}]", urls.names[v.url], v.offset, v.length);
    case DiffValue::Kind::kWholeFile:
      return fmt::format("[\"{}\"]", urls.names[v.url]);
  }
  return {};
}

}  // namespace kerchunk::verify::internal
