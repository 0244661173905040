// Streaming Kerchunk JSON reader (simdjson On-Demand). Two passes over "refs": the first finds
// the .zarray documents (their chunk grids decide which keys are chunks), the second fills the
// columns. Keys can come in any order, so one pass would have to buffer every key.
#include <simdjson.h>

#include <charconv>
#include <unordered_map>

#include "gen_template.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/base64.h"
#include "kerchunk/util/file_io.h"
#include "simdjson_status.h"

namespace kerchunk {
namespace {

namespace od = simdjson::ondemand;
using internal::AbbreviatedTemplate;
using internal::HasTemplate;
using internal::RenderTemplate;
using internal::TemplateScope;

Status JsonError(simdjson::error_code err, std::string_view where) {
  return internal::MalformedJson(err, fmt::format("Kerchunk JSON ({})", where));
}

// simdjson's errors, with the byte position the parser had reached: one line that names the key
// and where to look, even in a file of gigabytes.
class JsonErrors {
 public:
  JsonErrors(std::string_view document, od::document& doc) : document_(document), doc_(&doc) {}

  /// An error while reading the value of `key`.
  Status operator()(simdjson::error_code err, std::string_view key) const {
    return Error(err, fmt::format("key \"{}\"", key));
  }
  /// An error between keys of the top-level object.
  Status TopLevel(simdjson::error_code err) const { return Error(err, "top level"); }

 private:
  Status Error(simdjson::error_code err, std::string_view where) const {
    const char* at = nullptr;
    if (doc_->current_location().get(at) == simdjson::SUCCESS && at >= document_.data() &&
        at <= document_.data() + document_.size()) {
      return internal::MalformedJson(
          err, fmt::format("Kerchunk JSON: {}: near byte {}", where, at - document_.data()));
    }
    return internal::MalformedJson(err, fmt::format("Kerchunk JSON: {}", where));
  }

  std::string_view document_;
  od::document* doc_;
};

// The text of any JSON value, for values kept verbatim (kJson entries, gen, templates).
simdjson::simdjson_result<std::string_view> RawTextWithSpace(od::value& v);

simdjson::simdjson_result<std::string_view> RawText(od::value& v) {
  std::string_view text;
  if (auto err = RawTextWithSpace(v).get(text)) return err;
  // simdjson's raw views run up to the next token, so they can end in whitespace.
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                           text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

simdjson::simdjson_result<std::string_view> RawTextWithSpace(od::value& v) {
  od::json_type t;
  if (auto err = v.type().get(t)) return err;
  if (t == od::json_type::object) {
    od::object o;
    if (auto err = v.get_object().get(o)) return err;
    return o.raw_json();
  }
  if (t == od::json_type::array) {
    od::array a;
    if (auto err = v.get_array().get(a)) return err;
    return a.raw_json();
  }
  return v.raw_json_token();
}

// Checks that `text`, a value the reader keeps or copies verbatim, is one complete JSON value.
// simdjson On-Demand only matches brackets when it skips or takes the raw text of a value, so
// without this check a malformed value would be written into the index (and into packed files,
// which then no longer read back). The DOM parser used here has a fixed depth limit.
Status ValidateVerbatim(std::string_view text, std::string_view document, std::string_view key) {
  auto parsed = json::Value::Parse(text);
  if (parsed.ok()) return OkStatus();
  size_t position = text.data() >= document.data() ? size_t(text.data() - document.data()) : 0;
  return InvalidArgumentError("malformed Kerchunk JSON: key \"{}\": value at byte {}: {}", key,
                              position, parsed.status().message());
}

// State shared by both passes over the refs object.
class RefsReader {
 public:
  /// `document` is the whole text being read, for the byte positions in error messages.
  RefsReader(ReferenceSet& out, std::string_view document, const JsonErrors& errors)
      : out_(out), document_(document), errors_(errors) {}

  const JsonErrors& errors() const { return errors_; }
  /// Keys kept as entries so far (not chunks of an array).
  size_t entry_count() const { return out_.entries.size(); }

  void set_templates(TemplateScope t) { templates_ = std::move(t); }

  // Pass 1: one field. Only .zarray values are read; everything else is skipped.
  Status ScanForArrays(std::string_view key, od::value value) {
    auto path = ZarrayKeyArrayPath(key);
    if (!path) return OkStatus();
    std::string_view text;
    od::json_type t;
    if (auto err = value.type().get(t)) return errors_(err, key);
    if (t == od::json_type::string) {
      if (auto err = value.get_string().get(text)) return errors_(err, key);
    } else {
      if (auto err = RawText(value).get(text)) return errors_(err, key);
    }
    auto grid = ChunkGrid::FromZarray(text);
    if (!grid.ok()) return OkStatus();  // keys of an array without a valid grid stay entries
    array_index_.emplace(std::string(*path), out_.arrays.size());
    out_.AddArray(std::string(*path), std::move(*grid));
    return OkStatus();
  }

  // Pass 2: one field.
  Status Read(std::string_view key, od::value value) {
    od::json_type t;
    if (auto err = value.type().get(t)) return errors_(err, key);
    switch (t) {
      case od::json_type::string: {
        std::string_view s;
        if (auto err = value.get_string().get(s)) return errors_(err, key);
        return AddString(key, s);
      }
      case od::json_type::array: {
        od::array arr;
        if (auto err = value.get_array().get(arr)) return errors_(err, key);
        return AddReference(key, arr);
      }
      default: {
        std::string_view text;
        if (auto err = RawText(value).get(text)) return errors_(err, key);
        KERCHUNK_RETURN_IF_ERROR(ValidateVerbatim(text, document_, key));
        out_.entries.push_back({std::string(key), {EntryValue::Kind::kJson, std::string(text)}});
        return OkStatus();
      }
    }
  }

  // Adds a reference produced by a "gen" entry (url already rendered).
  Status AddGenerated(std::string_view key, std::string_view url, std::optional<uint64_t> offset,
                      std::optional<uint64_t> length) {
    uint32_t id = out_.urls.Intern(url);
    if (auto chunk = FindChunk(key)) {
      if (offset) {
        chunk->first->AddRange(chunk->second, id, *offset, *length);
      } else {
        chunk->first->AddWholeFile(chunk->second, id);
      }
      return OkStatus();
    }
    EntryValue v;
    v.kind = offset ? EntryValue::Kind::kRange : EntryValue::Kind::kWholeFile;
    v.url = id;
    v.offset = offset.value_or(0);
    v.length = length.value_or(0);
    out_.entries.push_back({std::string(key), std::move(v)});
    return OkStatus();
  }

 private:
  // The array and chunk index a key addresses, if it is a canonical in-grid chunk key.
  std::optional<std::pair<ArrayRefs*, uint64_t>> FindChunk(std::string_view key) {
    if (array_index_.empty()) return std::nullopt;
    // Try the longest array path first: "a/b/0.1" -> array "a/b"; with '/' separators the
    // split point can be further left ("a/b/0/1").
    for (size_t slash = key.rfind('/');; slash = key.rfind('/', slash - 1)) {
      std::string_view path = slash == std::string_view::npos ? "" : key.substr(0, slash);
      std::string_view suffix = slash == std::string_view::npos ? key : key.substr(slash + 1);
      auto it = array_index_.find(std::string(path));
      if (it != array_index_.end()) {
        ArrayRefs& a = out_.arrays[it->second];
        if (auto chunk = a.grid().ParseKey(suffix)) return std::make_pair(&a, *chunk);
      }
      if (slash == std::string_view::npos || slash == 0) break;
    }
    auto root = array_index_.find("");
    if (root != array_index_.end() && key.find('/') != std::string_view::npos) {
      ArrayRefs& a = out_.arrays[root->second];
      if (auto chunk = a.grid().ParseKey(key)) return std::make_pair(&a, *chunk);
    }
    return std::nullopt;
  }

  Status AddString(std::string_view key, std::string_view s) {
    bool is_base64 = s.starts_with("base64:");
    std::string decoded;
    if (is_base64) {
      auto d = Base64Decode(s.substr(7));
      if (!d.ok()) return std::move(d).status().Annotate("refs key \"{}\"", key);
      decoded = std::move(*d);
    }
    if (auto chunk = FindChunk(key)) {
      chunk->first->AddInline(chunk->second, is_base64 ? std::string_view(decoded) : s, is_base64);
      return OkStatus();
    }
    EntryValue v;
    v.kind = is_base64 ? EntryValue::Kind::kBase64 : EntryValue::Kind::kText;
    v.data = is_base64 ? std::move(decoded) : std::string(s);
    out_.entries.push_back({std::string(key), std::move(v)});
    return OkStatus();
  }

  Status AddReference(std::string_view key, od::array arr) {
    std::string_view url;
    uint64_t numbers[2] = {0, 0};
    size_t count = 0;
    bool null_url = false;
    for (auto item : arr) {
      od::value v;
      if (auto err = item.get(v)) return errors_(err, key);
      if (count == 0) {
        od::json_type t;
        if (auto err = v.type().get(t)) return errors_(err, key);
        if (t == od::json_type::null) {
          null_url = true;
        } else if (v.get_string().get(url) != simdjson::SUCCESS) {
          return BadReference(key);
        }
      } else if (count <= 2) {
        if (v.get_uint64().get(numbers[count - 1])) return BadReference(key);
      }
      ++count;
    }
    if (count != 1 && count != 3) return BadReference(key);
    if (null_url) return BadReference(key);
    std::string rendered;
    // As fsspec's ReferenceFileSystem: reference URLs are rendered only in a document that
    // defines templates; elsewhere "{{" is part of the URL (a URL rendered from a template may
    // hold it too, and the writer then writes it as it is).
    if (!templates_.empty() && HasTemplate(url)) {
      auto r = RenderTemplate(url, templates_);
      if (!r.ok()) return std::move(r).status().Annotate("refs key \"{}\"", key);
      rendered = std::move(*r);
      url = rendered;
    }
    if (count == 3 && numbers[1] == ArrayRefs::kWholeFileLength) return BadReference(key);
    return AddGenerated(key, url, count == 3 ? std::optional(numbers[0]) : std::nullopt,
                        count == 3 ? std::optional(numbers[1]) : std::nullopt);
  }

  static Status BadReference(std::string_view key) {
    return InvalidArgumentError(
        "refs key \"{}\": expected a string, [url] or [url, offset, length] with non-negative "
        "integers",
        key);
  }

  ReferenceSet& out_;
  std::string_view document_;
  const JsonErrors& errors_;
  TemplateScope templates_;
  std::unordered_map<std::string, size_t> array_index_;
};

Result<TemplateScope> ReadTemplates(od::value value, const JsonErrors& errors) {
  TemplateScope scope;
  od::object obj;
  if (value.get_object().get(obj)) {
    return InvalidArgumentError("\"templates\" must be an object of strings");
  }
  for (auto field : obj) {
    std::string_view key, text;
    if (auto err = field.unescaped_key().get(key)) return errors(err, "templates");
    std::string name(key);
    if (field.value().get_string().get(text)) {
      return InvalidArgumentError("template \"{}\" must be a string", name);
    }
    scope.emplace(std::move(name), std::string(text));
  }
  return scope;
}

// Upper bound on the references one "gen" entry may describe, so a hostile file cannot make
// the reader allocate without limit. A generated chunk of an array costs ~28 bytes in the
// reference columns, so 10^8 of them fit in a few GB, as a real index of that size would.
constexpr uint64_t kMaxGeneratedRefs = 100'000'000;
// Generated keys that are not chunks of an array become separate entries (~250 bytes each with
// their key strings); a document may generate at most this many of them in all.
constexpr uint64_t kMaxGeneratedEntries = 1'000'000;

// Values one gen dimension takes: {"start","stop","step"} (a Python range) or a list.
Result<std::vector<int64_t>> GenDimensionValues(const std::string& name, const json::Value& spec) {
  std::vector<int64_t> values;
  if (spec.is_array()) {
    for (const auto& v : spec.as_array()) {
      if (v.type() != json::Value::Type::kInt) {
        return UnsupportedError("gen dimension \"{}\": only integer values are supported", name);
      }
      values.push_back(v.as_int());
    }
    return values;
  }
  if (!spec.is_object()) {
    return InvalidArgumentError("gen dimension \"{}\": expected an object or a list", name);
  }
  auto get = [&](const char* field, int64_t def) -> Result<int64_t> {
    const json::Value* v = spec.Find(field);
    if (!v) return def;
    if (v->type() != json::Value::Type::kInt) {
      return InvalidArgumentError("gen dimension \"{}\": \"{}\" must be an integer", name, field);
    }
    return v->as_int();
  };
  KERCHUNK_ASSIGN_OR_RETURN(int64_t start, get("start", 0));
  KERCHUNK_ASSIGN_OR_RETURN(int64_t stop, get("stop", 0));
  KERCHUNK_ASSIGN_OR_RETURN(int64_t step, get("step", 1));
  if (step == 0) return InvalidArgumentError("gen dimension \"{}\": step is 0", name);
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
    if (values.size() >= kMaxGeneratedRefs) {
      return InvalidArgumentError("gen dimension \"{}\" has more than {} values", name,
                                  kMaxGeneratedRefs);
    }
    values.push_back(i);
    if ((step > 0 && i > INT64_MAX - step) || (step < 0 && i < INT64_MIN - step)) break;
  }
  return values;
}

// Renders an offset/length field (a number or a template string) to an integer.
Result<uint64_t> RenderInteger(const json::Value& v, const TemplateScope& scope,
                               std::string_view what) {
  if (v.type() == json::Value::Type::kInt && v.as_int() >= 0) return uint64_t(v.as_int());
  if (!v.is_string())
    return InvalidArgumentError("gen {}: expected an integer or a template", what);
  KERCHUNK_ASSIGN_OR_RETURN(std::string text, RenderTemplate(v.as_string(), scope));
  uint64_t n;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || p != text.data() + text.size()) {
    return InvalidArgumentError("gen {}: \"{}\" is not a non-negative integer", what, text);
  }
  return n;
}

// Expands the "gen" list (parsed with the tolerant DOM: it is small).
Status ExpandGen(std::string_view gen_json, const TemplateScope& templates, RefsReader& reader) {
  KERCHUNK_ASSIGN_OR_RETURN(json::Value gen, json::Value::Parse(gen_json));
  const size_t entries_before = reader.entry_count();
  if (!gen.is_array()) return InvalidArgumentError("\"gen\" must be a list");
  for (const json::Value& item : gen.as_array()) {
    const json::Value* key = item.Find("key");
    const json::Value* url = item.Find("url");
    const json::Value* dims = item.Find("dimensions");
    if (!key || !key->is_string() || !url || !url->is_string() || !dims || !dims->is_object()) {
      return InvalidArgumentError(
          "gen entry: expected string \"key\", \"url\" and object \"dimensions\"");
    }
    const json::Value* offset = item.Find("offset");
    const json::Value* length = item.Find("length");
    if ((offset == nullptr) != (length == nullptr)) {
      return InvalidArgumentError("gen entry \"{}\": offset and length go together",
                                  AbbreviatedTemplate(key->as_string()));
    }
    std::vector<std::string> names;
    std::vector<std::vector<int64_t>> values;
    uint64_t total = 1;
    for (const auto& [name, spec] : dims->as_object()) {
      KERCHUNK_ASSIGN_OR_RETURN(auto v, GenDimensionValues(name, spec));
      total = v.empty() ? 0 : total * v.size();
      if (total > kMaxGeneratedRefs) {
        return InvalidArgumentError("gen entry \"{}\" describes more than {} references",
                                    AbbreviatedTemplate(key->as_string()), kMaxGeneratedRefs);
      }
      names.push_back(name);
      values.push_back(std::move(v));
    }
    TemplateScope scope = templates;
    std::vector<size_t> at(names.size(), 0);
    for (uint64_t n = 0; n < total; ++n) {
      for (size_t d = 0; d < names.size(); ++d) scope[names[d]] = values[d][at[d]];
      KERCHUNK_ASSIGN_OR_RETURN(std::string k, RenderTemplate(key->as_string(), scope));
      KERCHUNK_ASSIGN_OR_RETURN(std::string u, RenderTemplate(url->as_string(), scope));
      std::optional<uint64_t> off, len;
      if (offset) {
        KERCHUNK_ASSIGN_OR_RETURN(off, RenderInteger(*offset, scope, "offset"));
        KERCHUNK_ASSIGN_OR_RETURN(len, RenderInteger(*length, scope, "length"));
      }
      KERCHUNK_RETURN_IF_ERROR(reader.AddGenerated(k, u, off, len));
      if (reader.entry_count() - entries_before > kMaxGeneratedEntries) {
        return InvalidArgumentError(
            "gen entry \"{}\": more than {} of the generated keys are not chunks of an array "
            "with a .zarray",
            AbbreviatedTemplate(key->as_string()), kMaxGeneratedEntries);
      }
      // Odometer over the dimensions, last dimension fastest (itertools.product order).
      for (size_t d = names.size(); d-- > 0;) {
        if (++at[d] < values[d].size()) break;
        at[d] = 0;
      }
    }
  }
  return OkStatus();
}

Status ReadRefsObject(od::object refs, bool first_pass, RefsReader& reader) {
  for (auto field : refs) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return reader.errors()(err, "refs");
    od::value value;
    if (auto err = field.value().get(value)) return reader.errors()(err, key);
    // unescaped_key() views the parser's buffer, which later strings do not overwrite within
    // one document, so `key` stays valid while the value is read.
    Status s = first_pass ? reader.ScanForArrays(key, value) : reader.Read(key, value);
    if (!s.ok()) return s;
  }
  return OkStatus();
}

// Parses a document held in a padded buffer (simdjson reads up to SIMDJSON_PADDING bytes past
// the end).
Result<ReferenceSet> ParsePadded(simdjson::padded_string_view padded) {
  od::parser parser;
  od::document doc;
  if (auto err = parser.iterate(padded).get(doc)) return JsonError(err, "document");
  const std::string_view document(padded.data(), padded.length());
  const JsonErrors errors(document, doc);
  od::object top;
  if (auto err = doc.get_object().get(top)) {
    if (err != simdjson::INCORRECT_TYPE) return errors.TopLevel(err);
    return InvalidArgumentError("not a Kerchunk reference file: the top level is not an object");
  }

  // Pass 1 over the top level: version, templates, gen and the .zarray documents, both inside
  // "refs" (version 1) and at the top level (version 0: decided once the whole level is seen).
  ReferenceSet v1, v0;
  RefsReader v1_reader(v1, document, errors), v0_reader(v0, document, errors);
  bool has_version = false, has_refs = false;
  std::string gen_json;
  TemplateScope templates;
  for (auto field : top) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return errors.TopLevel(err);
    std::string name(key);
    od::value value;
    if (auto err = field.value().get(value)) return errors(err, name);
    if (name == "version") {
      int64_t version;
      if (value.get_int64().get(version) || version != 1) {
        return UnsupportedError("expected Kerchunk reference file version 1");
      }
      has_version = true;
    } else if (name == "refs") {
      od::object refs;
      if (value.get_object().get(refs)) return InvalidArgumentError("\"refs\" must be an object");
      has_refs = true;
      KERCHUNK_RETURN_IF_ERROR(ReadRefsObject(refs, /*first_pass=*/true, v1_reader));
    } else if (name == "templates") {
      KERCHUNK_ASSIGN_OR_RETURN(templates, ReadTemplates(value, errors));
    } else if (name == "gen") {
      std::string_view text;
      if (auto err = RawText(value).get(text)) return errors(err, "gen");
      gen_json = text;
    } else {
      KERCHUNK_RETURN_IF_ERROR(v0_reader.ScanForArrays(name, value));
    }
  }
  bool version1 = has_version && has_refs;
  RefsReader& reader = version1 ? v1_reader : v0_reader;
  reader.set_templates(templates);

  // Pass 2: the references themselves.
  doc.rewind();
  if (auto err = doc.get_object().get(top)) return errors.TopLevel(err);
  for (auto field : top) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return errors.TopLevel(err);
    od::value value;
    if (auto err = field.value().get(value)) return errors(err, key);
    if (version1) {
      if (key != "refs") {
        // Other top-level keys are ignored, but a document with a malformed value anywhere is
        // not JSON and is refused, as other readers would refuse it.
        if (key == "templates" || key == "version") continue;  // read in pass 1
        std::string_view text;
        if (auto err = RawText(value).get(text)) return errors(err, key);
        KERCHUNK_RETURN_IF_ERROR(ValidateVerbatim(text, document, key));
        continue;
      }
      od::object refs;
      if (auto err = value.get_object().get(refs)) return errors(err, "refs");
      KERCHUNK_RETURN_IF_ERROR(ReadRefsObject(refs, /*first_pass=*/false, reader));
    } else if (key == "gen") {
      std::string_view text;  // ignored without "version": 1, but it must still be JSON
      if (auto err = RawText(value).get(text)) return errors(err, key);
      KERCHUNK_RETURN_IF_ERROR(ValidateVerbatim(text, document, key));
    } else if (key != "templates" && key != "version") {
      KERCHUNK_RETURN_IF_ERROR(reader.Read(key, value));
    }
  }
  if (version1 && !gen_json.empty()) {
    KERCHUNK_RETURN_IF_ERROR(ExpandGen(gen_json, templates, reader));
  }
  ReferenceSet& out = version1 ? v1 : v0;
  KERCHUNK_RETURN_IF_ERROR(out.Finalize());
  return std::move(out);
}

}  // namespace

Result<ReferenceSet> ParseKerchunkJson(std::string_view json) {
  simdjson::padded_string padded(json);
  return ParsePadded(padded);
}

Result<ReferenceSet> ReadKerchunkFile(const std::string& path) {
  simdjson::padded_string padded;
  if (auto err = simdjson::padded_string::load(path).get(padded)) {
    auto size = FileSize(path);
    if (!size.ok()) return size.status();
    return IoError("{}: cannot read: {}", path, simdjson::error_message(err));
  }
  return ParsePadded(padded).Annotate(path);
}

}  // namespace kerchunk
