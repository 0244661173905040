#include "verify/against.h"

#include <fmt/format.h>

#include <filesystem>
#include <unordered_map>

#include "kerchunk/json/json_value.h"
#include "verify/checks.h"
#include "verify/metadata.h"

namespace kerchunk::verify::internal {
namespace {

class Differ {
 public:
  Differ(const ReferenceSet& a, const ReferenceSet& b, const CanonicalUrls& urls, DiffSide as,
         DiffSide bs, std::string a_name, std::string b_name, Report& report)
      : a_(a),
        b_(b),
        urls_(urls),
        as_(as),
        bs_(bs),
        a_name_(std::move(a_name)),
        b_name_(std::move(b_name)),
        report_(report) {
    for (const Entry& e : a.entries) a_entries_.emplace(e.key, &e);
    for (const Entry& e : b.entries) b_entries_.emplace(e.key, &e);
  }

  void Run();

 private:
  // The value of `key` in a set, wherever the model holds it.
  std::optional<DiffValue> Lookup(const ReferenceSet& set, const std::vector<uint32_t>& canonical,
                                  const std::unordered_map<std::string_view, const Entry*>& entries,
                                  std::string_view key) const;
  std::optional<DiffValue> LookupA(std::string_view key) const {
    return Lookup(a_, urls_.a, a_entries_, key);
  }
  std::optional<DiffValue> LookupB(std::string_view key) const {
    return Lookup(b_, urls_.b, b_entries_, key);
  }
  void Compare(const std::string& case_name, const std::string& key, const DiffValue& x,
               const DiffValue& y);
  void OnlyIn(bool input, const std::string& case_name, const std::string& key, const DiffValue& v);
  void CompareArray(const ArrayRefs& a);
  CaseLog& Log(const std::string& case_name);

  const ReferenceSet& a_;
  const ReferenceSet& b_;
  const CanonicalUrls& urls_;
  DiffSide as_, bs_;
  std::string a_name_, b_name_;
  Report& report_;
  std::unordered_map<std::string_view, const Entry*> a_entries_, b_entries_;
  std::vector<CaseLog> logs_;
  std::unordered_map<std::string, size_t> log_index_;
};

CaseLog& Differ::Log(const std::string& case_name) {
  auto [it, inserted] = log_index_.try_emplace(case_name, logs_.size());
  if (inserted) logs_.push_back(report_.NewCase(Check::kAgainst, case_name));
  return logs_[it->second];
}

std::optional<DiffValue> Differ::Lookup(
    const ReferenceSet& set, const std::vector<uint32_t>& canonical,
    const std::unordered_map<std::string_view, const Entry*>& entries, std::string_view key) const {
  if (auto it = entries.find(key); it != entries.end()) {
    return FromEntry(it->second->value, canonical);
  }
  auto chunk = [&](std::string_view path, std::string_view suffix) -> std::optional<DiffValue> {
    const ArrayRefs* array = set.FindArray(path);
    if (!array) return std::nullopt;
    std::optional<uint64_t> index = array->grid().ParseKey(suffix);
    std::optional<size_t> i = index ? array->Find(*index) : std::nullopt;
    if (!i) return std::nullopt;
    return FromChunk(array->Get(*i), canonical);
  };
  // The longest array path first, as the reader assigns keys.
  for (size_t slash = key.rfind('/'); slash != std::string_view::npos;
       slash = slash == 0 ? std::string_view::npos : key.rfind('/', slash - 1)) {
    if (auto v = chunk(key.substr(0, slash), key.substr(slash + 1))) return v;
  }
  if (auto v = chunk("", key)) return v;
  return std::nullopt;
}

void Differ::Compare(const std::string& case_name, const std::string& key, const DiffValue& x,
                     const DiffValue& y) {
  DiffTotals& totals = report_.diff_totals();
  CaseLog& log = Log(case_name);
  log.Examined();
  ++totals.compared;
  std::string detail;
  switch (CompareValues(key, x, as_, y, bs_, detail)) {
    case Verdict::kEqual:
      return;
    case Verdict::kEqualBytes:
      ++totals.same_bytes_inline;
      return;
    case Verdict::kMetadataDiffers:
      ++totals.metadata;
      log.Fail(key, fmt::format("{}: metadata differs: {}", key, detail));
      return;
    case Verdict::kValueDiffers:
      ++totals.references;
      log.FailWith([&] {
        return Finding{key, fmt::format("{}: {} in {}, {} in {}{}", key, Describe(x, urls_),
                                        a_name_, Describe(y, urls_), b_name_,
                                        detail.empty() ? "" : " (" + detail + ")")};
      });
      return;
  }
}

void Differ::OnlyIn(bool input, const std::string& case_name, const std::string& key,
                    const DiffValue& v) {
  CaseLog& log = Log(case_name);
  log.Examined();
  ++(input ? report_.diff_totals().only_in_input : report_.diff_totals().only_in_other);
  log.FailWith([&] {
    return Finding{key, fmt::format("{}: only in {} ({})", key, input ? a_name_ : b_name_,
                                    Describe(v, urls_))};
  });
}

void Differ::CompareArray(const ArrayRefs& a) {
  const ArrayRefs* b = b_.FindArray(a.path());
  const std::string& name = a.path();
  if (b && b->grid() == a.grid()) {
    // Same grid: a merge of the two sorted chunk columns, no key strings unless they differ.
    size_t i = 0, j = 0;
    auto key = [&](const ArrayRefs& x, size_t k) {
      return x.KeyPrefix() + x.grid().Key(x.chunk_index(k));
    };
    while (i < a.size() || j < b->size()) {
      if (j == b->size() || (i < a.size() && a.chunk_index(i) < b->chunk_index(j))) {
        OnlyIn(true, name, key(a, i), FromChunk(a.Get(i), urls_.a));
        ++i;
      } else if (i == a.size() || b->chunk_index(j) < a.chunk_index(i)) {
        OnlyIn(false, name, key(*b, j), FromChunk(b->Get(j), urls_.b));
        ++j;
      } else {
        const ChunkRef x = a.Get(i), y = b->Get(j);
        const bool fast_equal = x.kind == RefKind::kRange && y.kind == RefKind::kRange &&
                                x.offset == y.offset && x.length == y.length &&
                                urls_.a[x.url] == urls_.b[y.url];
        if (fast_equal) {
          Log(name).Examined();
          ++report_.diff_totals().compared;
        } else {
          Compare(name, key(a, i), FromChunk(x, urls_.a), FromChunk(y, urls_.b));
        }
        ++i;
        ++j;
      }
    }
    return;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string key = a.KeyPrefix() + a.grid().Key(a.chunk_index(i));
    if (std::optional<DiffValue> y = LookupB(key)) {
      Compare(name, key, FromChunk(a.Get(i), urls_.a), *y);
    } else {
      OnlyIn(true, name, key, FromChunk(a.Get(i), urls_.a));
    }
  }
}

void Differ::Run() {
  for (const Entry& e : a_.entries) {
    const std::string case_name(NodePath(e.key));
    if (std::optional<DiffValue> y = LookupB(e.key)) {
      Compare(case_name, e.key, FromEntry(e.value, urls_.a), *y);
    } else {
      OnlyIn(true, case_name, e.key, FromEntry(e.value, urls_.a));
    }
  }
  for (const ArrayRefs& a : a_.arrays) CompareArray(a);
  // What B holds that A has under no form: B's entries and the chunks of B arrays not merged
  // above (a different grid or no such array in A).
  for (const Entry& e : b_.entries) {
    if (!LookupA(e.key))
      OnlyIn(false, std::string(NodePath(e.key)), e.key, FromEntry(e.value, urls_.b));
  }
  for (const ArrayRefs& b : b_.arrays) {
    const ArrayRefs* a = a_.FindArray(b.path());
    if (a && a->grid() == b.grid()) continue;
    for (size_t j = 0; j < b.size(); ++j) {
      const std::string key = b.KeyPrefix() + b.grid().Key(b.chunk_index(j));
      if (!LookupA(key)) OnlyIn(false, b.path(), key, FromChunk(b.Get(j), urls_.b));
    }
  }
  for (CaseLog& log : logs_) report_.Add(std::move(log));
  report_.MarkRun(Check::kAgainst);
}

}  // namespace

Status CompareWithOther(const ReferenceSet& refs, const VerifyOptions& options,
                        const CheckContext& context, Report& report) {
  Result<LoadedReferences> other = LoadReferences(options.against);
  if (!other.ok()) return std::move(other).status().Annotate("--against");
  KERCHUNK_ASSIGN_OR_RETURN(ResolvedFiles a_files,
                            ResolveFiles(refs.urls, options.rewrites, true, context.threads));
  KERCHUNK_ASSIGN_OR_RETURN(ResolvedFiles b_files, ResolveFiles(other->refs.urls, options.rewrites,
                                                                true, context.threads));
  const CanonicalUrls urls = Canonicalize(a_files, refs.urls, b_files, other->refs.urls);
  FileReader a_reader(a_files), b_reader(b_files);
  report.against_path() = options.against;
  Differ differ(refs, other->refs, urls, {&refs, &a_reader}, {&other->refs, &b_reader},
                options.input, options.against, report);
  differ.Run();
  return OkStatus();
}

}  // namespace kerchunk::verify::internal

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
