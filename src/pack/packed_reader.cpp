// Reads a packed file (docs/packed-format.md) with simdjson On-Demand: the format name and
// version first, then every field with its type checked. Unknown fields are skipped so later
// versions can add optional ones; a required field missing or twice is an error.
#include <simdjson.h>

#include <charconv>
#include <initializer_list>

#include "base64_decoder.h"
#include "generator.h"
#include "json/simdjson_status.h"
#include "packed_columns.h"
#include "rice_codec.h"

namespace kerchunk::pack::internal {
namespace {

namespace od = simdjson::ondemand;

Status JsonError(simdjson::error_code err, std::string_view field, std::string_view expected) {
  if (err == simdjson::INCORRECT_TYPE || err == simdjson::NUMBER_OUT_OF_RANGE ||
      err == simdjson::NUMBER_ERROR) {
    return DataLossError("\"{}\": expected {}", field, expected);
  }
  return kerchunk::internal::MalformedJson(err, fmt::format("packed file (at \"{}\")", field));
}

// Calls fn(key, value) for each field; fails on a duplicate of one of `required` and when one
// of them is missing. Other fields are skipped.
template <typename Fn>
Status ReadObject(od::value value, std::string_view where,
                  std::initializer_list<std::string_view> required, Fn&& fn) {
  od::object object;
  if (auto err = value.get_object().get(object)) return JsonError(err, where, "an object");
  std::vector<int> seen(required.size(), 0);
  for (auto field : object) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return JsonError(err, where, "a key");
    std::string name(key);
    od::value v;
    if (auto err = field.value().get(v)) return JsonError(err, name, "a value");
    size_t r = 0;
    for (std::string_view req : required) {
      if (req == name && seen[r]++)
        return DataLossError("\"{}\": field \"{}\" repeated", where, name);
      ++r;
    }
    KERCHUNK_RETURN_IF_ERROR(fn(name, v));
  }
  size_t r = 0;
  for (std::string_view req : required) {
    if (!seen[r++]) return DataLossError("\"{}\": missing field \"{}\"", where, req);
  }
  return OkStatus();
}

Result<uint64_t> ReadUint(od::value v, std::string_view field) {
  uint64_t x;
  if (auto err = v.get_uint64().get(x)) return JsonError(err, field, "a non-negative integer");
  return x;
}

Result<std::string> ReadString(od::value v, std::string_view field) {
  std::string_view s;
  if (auto err = v.get_string().get(s)) return JsonError(err, field, "a string");
  return std::string(s);
}

Result<std::vector<std::string>> ReadStrings(od::value v, std::string_view field) {
  od::array array;
  if (auto err = v.get_array().get(array)) return JsonError(err, field, "a list of strings");
  std::vector<std::string> out;
  for (auto item : array) {
    std::string_view s;
    if (auto err = item.get_string().get(s)) return JsonError(err, field, "a list of strings");
    out.emplace_back(s);
  }
  return out;
}

Result<std::vector<uint64_t>> ReadUints(od::value v, std::string_view field) {
  od::array array;
  if (auto err = v.get_array().get(array)) return JsonError(err, field, "a list of integers");
  std::vector<uint64_t> out;
  for (auto item : array) {
    uint64_t x;
    if (auto err = item.get_uint64().get(x)) {
      return JsonError(err, field, "a list of non-negative integers");
    }
    out.push_back(x);
  }
  return out;
}

// Where "@<offset>+<length>" strings point: the blob section of a binary container; nullptr
// when the text came alone (plain JSON, the text-only container), where they are errors.
using Blobs = const std::string_view*;

// The bytes a blob reference "@<offset>+<length>" names.
Result<std::string_view> ResolveBlob(std::string_view text, Blobs blobs) {
  if (!blobs) {
    return InvalidArgumentError("a blob reference (\"@...\") outside a binary container");
  }
  uint64_t offset = 0, length = 0;
  const char* p = text.data() + 1;
  const char* end = text.data() + text.size();
  auto [after_offset, e1] = std::from_chars(p, end, offset);
  if (e1 != std::errc() || after_offset == end || *after_offset != '+') {
    return InvalidArgumentError("malformed blob reference \"{}\"", text);
  }
  auto [after_length, e2] = std::from_chars(after_offset + 1, end, length);
  if (e2 != std::errc() || after_length != end) {
    return InvalidArgumentError("malformed blob reference \"{}\"", text);
  }
  if (offset > blobs->size() || length > blobs->size() - offset) {
    return InvalidArgumentError("blob reference \"{}\" beyond the {}-byte blob section", text,
                                blobs->size());
  }
  return blobs->substr(offset, length);
}

// The bytes of a binary field: base64 text, or a blob reference. `extra_capacity` as
// DecodeBase64's.
Status DecodeBytes(std::string_view text, Blobs blobs, std::string& out,
                   size_t extra_capacity = 0) {
  if (!text.starts_with('@')) return DecodeBase64(text, out, extra_capacity);
  KERCHUNK_ASSIGN_OR_RETURN(std::string_view bytes, ResolveBlob(text, blobs));
  out.clear();
  out.reserve(bytes.size() + extra_capacity);
  out.assign(bytes);
  return OkStatus();
}

// A column: a plain JSON array, or {"<encoding>": "<base64>" or "@<offset>+<length>"}.
Result<std::vector<uint64_t>> ReadColumn(od::value v, const IntColumnCodec& codec, Blobs blobs) {
  const std::string_view field = codec.field();
  od::json_type type;
  if (auto err = v.type().get(type)) return JsonError(err, field, "a column");
  if (type == od::json_type::array) {
    od::array array;
    if (auto err = v.get_array().get(array)) return JsonError(err, field, "a list");
    std::vector<uint64_t> out;
    for (auto item : array) {
      uint64_t x;
      if (codec.type() == ColumnType::kSigned) {
        int64_t s;
        if (auto err = item.get_int64().get(s)) return JsonError(err, field, "a list of integers");
        x = static_cast<uint64_t>(s);
      } else if (auto err = item.get_uint64().get(x)) {
        return JsonError(err, field, "a list of non-negative integers");
      }
      out.push_back(x);
    }
    KERCHUNK_RETURN_IF_ERROR(codec.CheckPlain(out));
    return out;
  }
  od::object object;
  if (auto err = v.get_object().get(object)) {
    return JsonError(err, field, "a list or an object {\"<encoding>\": \"<base64>\"}");
  }
  std::optional<std::vector<uint64_t>> out;
  for (auto member : object) {
    std::string_view key, text;
    if (auto err = member.unescaped_key().get(key)) return JsonError(err, field, "a key");
    std::string encoding(key);
    if (out) return DataLossError("\"{}\": expected one encoding, got several", field);
    if (auto err = member.value().get_string().get(text)) {
      return JsonError(err, field, "a base64 string or blob reference");
    }
    std::string decoded;
    std::string_view bytes;
    if (text.starts_with('@')) {  // decoded in place, no copy
      auto blob = ResolveBlob(text, blobs);
      if (!blob.ok()) return DataLossError("\"{}\": {}", field, blob.status().message());
      bytes = *blob;
    } else {
      if (Status s = DecodeBase64(text, decoded); !s.ok()) {
        return DataLossError("\"{}\": {}", field, s.message());
      }
      bytes = decoded;
    }
    KERCHUNK_ASSIGN_OR_RETURN(
        out, codec.DecodeBinary(encoding, std::as_bytes(std::span(bytes.data(), bytes.size()))));
  }
  if (!out) return DataLossError("\"{}\": the column has no encoding", field);
  return std::move(*out);
}

Result<Predictor> ParsePredictor(std::string_view name) {
  for (Predictor p : {Predictor::kConstant, Predictor::kPrevious, Predictor::kPosition}) {
    if (PredictorName(p) == name) return p;
  }
  return DataLossError("\"lengths.predictor\": unknown predictor \"{}\"", name);
}

Status ReadLengths(od::value v, LengthColumns& l, Blobs blobs) {
  std::string coding, predictor;
  bool has_stream = false;
  KERCHUNK_RETURN_IF_ERROR(
      ReadObject(v, "lengths", {"coding"}, [&](const std::string& key, od::value x) -> Status {
        if (key == "coding") {
          KERCHUNK_ASSIGN_OR_RETURN(coding, ReadString(x, "lengths.coding"));
        } else if (key == "values") {
          KERCHUNK_ASSIGN_OR_RETURN(l.values, ReadColumn(x, columns::kLengthValues, blobs));
        } else if (key == "predictor") {
          KERCHUNK_ASSIGN_OR_RETURN(predictor, ReadString(x, "lengths.predictor"));
        } else if (key == "centers") {
          KERCHUNK_ASSIGN_OR_RETURN(l.centers, ReadColumn(x, columns::kCenters, blobs));
        } else if (key == "parameters") {
          KERCHUNK_ASSIGN_OR_RETURN(l.parameters, ReadColumn(x, columns::kParameters, blobs));
        } else if (key == "block_bits") {
          KERCHUNK_ASSIGN_OR_RETURN(l.block_bits, ReadColumn(x, columns::kBlockBits, blobs));
        } else if (key == "bits") {
          KERCHUNK_ASSIGN_OR_RETURN(l.bits, ReadUint(x, "lengths.bits"));
        } else if (key == "data") {
          std::string_view text;
          if (auto err = x.get_string().get(text)) {
            return JsonError(err, "lengths.data", "a string");
          }
          // Room for the decoder's padding, so it does not copy the stream again.
          if (Status s = DecodeBytes(text, blobs, l.data, BitReader::kPadding); !s.ok()) {
            return DataLossError("\"lengths.data\": {}", s.message());
          }
          has_stream = true;
        }
        return OkStatus();
      }));
  if (coding == "plain") {
    l.plain = true;
    return OkStatus();
  }
  if (coding != "rice") {
    return DataLossError("\"lengths.coding\": expected \"rice\" or \"plain\", got \"{}\"", coding);
  }
  if (!has_stream) return DataLossError("\"lengths\": missing field \"data\"");
  KERCHUNK_ASSIGN_OR_RETURN(l.predictor, ParsePredictor(predictor));
  return OkStatus();
}

Status ReadPair(od::value v, std::string_view name, const IntColumnCodec& first,
                std::string_view first_key, std::vector<uint64_t>& a, const IntColumnCodec& second,
                std::string_view second_key, std::vector<uint64_t>& b, Blobs blobs) {
  return ReadObject(v, name, {first_key, second_key},
                    [&](const std::string& key, od::value x) -> Status {
                      if (key == first_key) {
                        KERCHUNK_ASSIGN_OR_RETURN(a, ReadColumn(x, first, blobs));
                      } else if (key == second_key) {
                        KERCHUNK_ASSIGN_OR_RETURN(b, ReadColumn(x, second, blobs));
                      }
                      return OkStatus();
                    });
}

Status ReadGaps(od::value v, GeneratorColumns& g, Blobs blobs) {
  return ReadObject(
      v, "gaps", {"default", "index", "value"}, [&](const std::string& key, od::value x) -> Status {
        if (key == "default") {
          KERCHUNK_ASSIGN_OR_RETURN(g.gap_default, ReadColumn(x, columns::kGapDefault, blobs));
        } else if (key == "index") {
          KERCHUNK_ASSIGN_OR_RETURN(g.gap_index, ReadColumn(x, columns::kGapIndex, blobs));
        } else if (key == "value") {
          KERCHUNK_ASSIGN_OR_RETURN(g.gap_value, ReadColumn(x, columns::kGapValue, blobs));
        }
        return OkStatus();
      });
}

Status ReadStats(od::value v, GeneratorStats& s) {
  return ReadObject(v, "stats", {}, [&](const std::string& key, od::value x) -> Status {
    uint64_t n;
    double d;
    if (key == "gfactor") {
      if (!x.get_double().get(d)) s.gfactor = d;
    } else if (!x.get_uint64().get(n)) {
      if (key == "slots") s.slots = n;
      if (key == "skipped") s.skipped = n;
      if (key == "unique") s.unique = n;
      if (key == "modal_length") s.modal_length = n;
      if (key == "gaps") s.gaps = n;
      if (key == "file_switches") s.file_switches = n;
    }
    return OkStatus();
  });
}

Result<GeneratorColumns> ReadGenerator(od::value v, Blobs blobs) {
  GeneratorColumns g;
  KERCHUNK_RETURN_IF_ERROR(ReadObject(
      v, "generator",
      {"variables", "chunk_grid", "interleave", "references", "checkpoint_interval", "presence",
       "lengths", "ends", "gaps", "files"},
      [&](const std::string& key, od::value x) -> Status {
        if (key == "variables") {
          KERCHUNK_ASSIGN_OR_RETURN(g.variables, ReadStrings(x, key));
        } else if (key == "chunk_grid") {
          KERCHUNK_ASSIGN_OR_RETURN(g.chunk_grid, ReadUints(x, key));
        } else if (key == "interleave") {
          KERCHUNK_ASSIGN_OR_RETURN(g.interleave, ReadUint(x, key));
        } else if (key == "references") {
          KERCHUNK_ASSIGN_OR_RETURN(g.references, ReadUint(x, key));
        } else if (key == "checkpoint_interval") {
          KERCHUNK_ASSIGN_OR_RETURN(g.checkpoint_interval, ReadUint(x, key));
        } else if (key == "stats") {
          return ReadStats(x, g.stats);
        } else if (key == "presence") {
          KERCHUNK_ASSIGN_OR_RETURN(g.presence, ReadColumn(x, columns::kPresence, blobs));
        } else if (key == "lengths") {
          return ReadLengths(x, g.lengths, blobs);
        } else if (key == "ends") {
          KERCHUNK_ASSIGN_OR_RETURN(g.ends, ReadColumn(x, columns::kEnds, blobs));
        } else if (key == "gaps") {
          return ReadGaps(x, g, blobs);
        } else if (key == "files") {
          return ReadPair(x, "files", columns::kFileIndex, "index", g.file_index, columns::kFileUrl,
                          "url", g.file_url, blobs);
        }
        return OkStatus();
      }));
  return g;
}

// The format name and version, checked before anything else so a newer file gets the "newer
// version" message rather than an error about a field this version does not know.
Status CheckFormat(od::document& doc) {
  od::object top;
  if (auto err = doc.get_object().get(top)) {
    if (err == simdjson::INCORRECT_TYPE) {
      return InvalidArgumentError("not a packed Kerchunk file: the top level is not an object");
    }
    return JsonError(err, "document", "an object");
  }
  std::optional<std::string> format;
  std::optional<uint64_t> version;
  for (auto field : top) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return JsonError(err, "document", "a key");
    if (key == "format") {
      std::string_view s;
      if (field.value().get_string().get(s)) return DataLossError("\"format\": expected a string");
      format = std::string(s);
    } else if (key == "format_version") {
      uint64_t n;
      if (field.value().get_uint64().get(n)) {
        return DataLossError("\"format_version\": expected a non-negative integer");
      }
      version = n;
    }
  }
  if (!format || *format != kFormatName) {
    return InvalidArgumentError("not a packed Kerchunk file: expected \"format\": \"{}\"",
                                kFormatName);
  }
  if (!version) return DataLossError("missing field \"format_version\"");
  if (*version > kFormatVersion) {
    return UnsupportedError(
        "packed format version {} is newer than this kerchunk reads (up to {}); upgrade kerchunk",
        *version, kFormatVersion);
  }
  if (*version == 0) return DataLossError("\"format_version\": 0 is not a version");
  return OkStatus();
}

Status ReadData(od::value x, std::string_view field, std::string& out, Blobs blobs) {
  std::string_view text;
  if (auto err = x.get_string().get(text))
    return JsonError(err, field, "a base64 string or blob reference");
  if (Status s = DecodeBytes(text, blobs, out); !s.ok()) {
    return DataLossError("\"{}\": {}", field, s.message());
  }
  return OkStatus();
}

Result<InlineColumns> ReadInline(od::value v, Blobs blobs) {
  InlineColumns c;
  uint64_t values = 0;
  KERCHUNK_RETURN_IF_ERROR(ReadObject(
      v, "inline", {"variable", "values", "chunks", "lengths", "data"},
      [&](const std::string& key, od::value x) -> Status {
        if (key == "variable") {
          KERCHUNK_ASSIGN_OR_RETURN(c.variable, ReadString(x, "inline.variable"));
        } else if (key == "values") {
          KERCHUNK_ASSIGN_OR_RETURN(values, ReadUint(x, "inline.values"));
        } else if (key == "chunks") {
          KERCHUNK_ASSIGN_OR_RETURN(c.chunks, ReadColumn(x, columns::kInlineChunks, blobs));
        } else if (key == "ids") {
          KERCHUNK_ASSIGN_OR_RETURN(c.ids, ReadColumn(x, columns::kInlineIds, blobs));
        } else if (key == "lengths") {
          KERCHUNK_ASSIGN_OR_RETURN(c.lengths, ReadColumn(x, columns::kInlineLengths, blobs));
        } else if (key == "deflate") {
          KERCHUNK_ASSIGN_OR_RETURN(c.deflate, ReadColumn(x, columns::kInlineDeflate, blobs));
        } else if (key == "data") {
          return ReadData(x, "inline.data", c.data, blobs);
        }
        return OkStatus();
      }));
  if (values != c.chunks.size()) {
    return DataLossError("\"values\" is {}, but \"chunks\" has {}", values, c.chunks.size());
  }
  return c;
}

Status ReadTopLevel(od::document& doc, PackedContents& out, Blobs blobs) {
  od::value top;
  if (auto err = doc.get_value().get(top)) return JsonError(err, "document", "an object");
  return ReadObject(top, "document", {"checksum", "kerchunk", "urls", "generators"},
                    [&](const std::string& key, od::value x) -> Status {
                      if (key == "checksum") {
                        KERCHUNK_ASSIGN_OR_RETURN(std::string text, ReadString(x, key));
                        auto digest = ReferenceDigest::Parse(text);
                        if (!digest.ok())
                          return DataLossError("\"checksum\": {}", digest.status().message());
                        out.checksum = *digest;
                      } else if (key == "inline") {
                        od::array list;
                        if (auto err = x.get_array().get(list))
                          return JsonError(err, key, "a list");
                        for (auto item : list) {
                          od::value object;
                          if (auto err = item.get(object)) return JsonError(err, key, "an object");
                          auto values = ReadInline(object, blobs);
                          if (!values.ok()) {
                            return std::move(values).status().Annotate("inline values {}",
                                                                       out.inline_values.size());
                          }
                          out.inline_values.push_back(std::move(*values));
                        }
                      } else if (key == "kerchunk") {
                        od::object doc_object;
                        if (auto err = x.get_object().get(doc_object))
                          return JsonError(err, key, "an object");
                        std::string_view raw;
                        if (auto err = doc_object.raw_json().get(raw))
                          return JsonError(err, key, "an object");
                        out.kerchunk_json = std::string(raw);
                      } else if (key == "urls") {
                        KERCHUNK_ASSIGN_OR_RETURN(out.urls, ReadStrings(x, key));
                      } else if (key == "generators") {
                        od::array list;
                        if (auto err = x.get_array().get(list))
                          return JsonError(err, key, "a list");
                        for (auto item : list) {
                          od::value g;
                          if (auto err = item.get(g)) return JsonError(err, key, "a generator");
                          auto generator = ReadGenerator(g, blobs);
                          if (!generator.ok()) {
                            return std::move(generator).status().Annotate("generator {}",
                                                                          out.generators.size());
                          }
                          out.generators.push_back(std::move(*generator));
                        }
                      }
                      return OkStatus();
                    });
}

// On-Demand stops reading at the end of the top-level value; anything but whitespace after it
// makes the file malformed.
Status CheckNothingAfter(od::document& doc, const simdjson::padded_string& text) {
  od::object top;
  std::string_view raw;
  if (auto err = doc.get_object().get(top)) {
    if (err == simdjson::INCORRECT_TYPE) {
      return InvalidArgumentError("not a packed Kerchunk file: the top level is not an object");
    }
    return JsonError(err, "document", "an object");
  }
  if (auto err = top.raw_json().get(raw)) return JsonError(err, "document", "an object");
  size_t end = static_cast<size_t>(raw.data() - text.data()) + raw.size();
  for (size_t i = end; i < text.size(); ++i) {
    char c = text.data()[i];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      return InvalidArgumentError("malformed packed file: text after the document at byte {}", i);
    }
  }
  return OkStatus();
}

}  // namespace

Result<PackedContents> ParsePacked(std::string_view text, const std::string_view* blobs) {
  simdjson::padded_string padded(text);
  od::parser parser;
  od::document doc;
  if (auto err = parser.iterate(padded).get(doc)) return JsonError(err, "document", "JSON");
  KERCHUNK_RETURN_IF_ERROR(CheckNothingAfter(doc, padded));
  doc.rewind();
  KERCHUNK_RETURN_IF_ERROR(CheckFormat(doc));
  doc.rewind();
  PackedContents out;
  KERCHUNK_RETURN_IF_ERROR(ReadTopLevel(doc, out, blobs));
  return out;
}

}  // namespace kerchunk::pack::internal
