// Writes a packed file as JSON (docs/packed-format.md): header, the embedded Kerchunk document,
// URLs, then one object per generator, one line each so a diff or `head` stays readable.
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "generator.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/base64.h"
#include "packed_columns.h"

namespace kerchunk::pack::internal {
namespace {

void AppendUints(std::string& out, const std::vector<uint64_t>& values) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += fmt::to_string(values[i]);
  }
  out += ']';
}

void AppendStrings(std::string& out, const std::vector<std::string>& values) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    json::AppendString(out, values[i]);
  }
  out += ']';
}

void AppendStats(std::string& out, const GeneratorStats& s) {
  fmt::format_to(std::back_inserter(out),
                 "\"stats\":{{\"slots\":{},\"skipped\":{},\"unique\":{},\"modal_length\":{},"
                 "\"gaps\":{},\"file_switches\":{},\"gfactor\":",
                 s.slots, s.skipped, s.unique, s.modal_length, s.gaps, s.file_switches);
  json::AppendDouble(out, std::round(s.gfactor * 1e6) / 1e6);
  out += '}';
}

void AppendLengths(std::string& out, const LengthColumns& l, bool readable,
                   const ByteFields& bytes) {
  out += "\"lengths\":{";
  if (l.plain) {
    out += "\"coding\":\"plain\",\"values\":";
    columns::kLengthValues.Encode(l.values, readable, out, bytes);
    out += '}';
    return;
  }
  out += "\"coding\":\"rice\",\"predictor\":";
  json::AppendString(out, PredictorName(l.predictor));
  out += ",\"centers\":";
  columns::kCenters.Encode(l.centers, readable, out, bytes);
  out += ",\"parameters\":";
  columns::kParameters.Encode(l.parameters, readable, out, bytes);
  out += ",\"block_bits\":";
  columns::kBlockBits.Encode(l.block_bits, readable, out, bytes);
  fmt::format_to(std::back_inserter(out), ",\"bits\":{},\"data\":", l.bits);
  bytes.Append(l.data, out);
  out += '}';
}

void AppendGenerator(std::string& out, const GeneratorColumns& g, bool readable,
                     const ByteFields& bytes) {
  out += "{\"variables\":";
  AppendStrings(out, g.variables);
  out += ",\"chunk_grid\":";
  AppendUints(out, g.chunk_grid);
  fmt::format_to(std::back_inserter(out),
                 ",\"interleave\":{},\"references\":{},\"checkpoint_interval\":{},", g.interleave,
                 g.references, g.checkpoint_interval);
  AppendStats(out, g.stats);
  out += ",\"presence\":";
  columns::kPresence.Encode(g.presence, readable, out, bytes);
  out += ',';
  AppendLengths(out, g.lengths, readable, bytes);
  out += ",\"ends\":";
  columns::kEnds.Encode(g.ends, readable, out, bytes);
  out += ",\"gaps\":{\"default\":";
  columns::kGapDefault.Encode(g.gap_default, readable, out, bytes);
  out += ",\"index\":";
  columns::kGapIndex.Encode(g.gap_index, readable, out, bytes);
  out += ",\"value\":";
  columns::kGapValue.Encode(g.gap_value, readable, out, bytes);
  out += "},\"files\":{\"index\":";
  columns::kFileIndex.Encode(g.file_index, readable, out, bytes);
  out += ",\"url\":";
  columns::kFileUrl.Encode(g.file_url, readable, out, bytes);
  out += "}}";
}

}  // namespace

PackedTextWriter::PackedTextWriter(bool readable, size_t expected_bytes, ByteFields bytes)
    : readable_(readable), bytes_(bytes) {
  text_.reserve(expected_bytes);
}

void PackedTextWriter::Add(const GeneratorColumns& g) {
  last_mark_ = text_.size();
  if (bytes_.blobs()) last_blob_mark_ = bytes_.blobs()->size();
  text_ += generators_ ? ",\n" : "\n";
  AppendGenerator(text_, g, readable_, bytes_);
  ++generators_;
}

void PackedTextWriter::TakeBackLast() {
  text_.resize(last_mark_);
  if (bytes_.blobs()) bytes_.blobs()->resize(last_blob_mark_);
  --generators_;
}

std::string PackedTextWriter::Finish(const ReferenceDigest& checksum, std::string_view document,
                                     const std::vector<std::string>& urls,
                                     std::string_view inline_text, uint64_t version) {
  std::string head;
  fmt::format_to(std::back_inserter(head),
                 "{{\"format\":\"{}\",\"format_version\":{},\"checksum\":\"{}\",\n", kFormatName,
                 version, checksum.ToString());
  head += document;
  head += ",\n\"urls\":";
  AppendStrings(head, urls);
  if (!inline_text.empty()) {
    head += ",\n\"inline\":[\n";
    head += inline_text;
    head += ']';
  }
  head += ",\n\"generators\":[";
  // In place when the reserved room holds the head: a move within the buffer, no new memory.
  const size_t body = text_.size();
  text_.resize(head.size() + body);
  std::memmove(text_.data() + head.size(), text_.data(), body);
  std::memcpy(text_.data(), head.data(), head.size());
  text_ += "]}\n";
  return std::move(text_);
}

void AppendInline(std::string& out, const InlineColumns& c, bool readable,
                  const ByteFields& bytes) {
  out += "{\"variable\":";
  json::AppendString(out, c.variable);
  fmt::format_to(std::back_inserter(out), ",\"values\":{},\"chunks\":", c.chunks.size());
  columns::kInlineChunks.Encode(c.chunks, readable, out, bytes);
  if (!c.ids.empty()) {
    out += ",\"ids\":";
    columns::kInlineIds.Encode(c.ids, readable, out, bytes);
  }
  out += ",\"lengths\":";
  columns::kInlineLengths.Encode(c.lengths, readable, out, bytes);
  if (!c.deflate.empty()) {
    out += ",\"deflate\":";
    columns::kInlineDeflate.Encode(c.deflate, readable, out, bytes);
  }
  out += ",\"data\":";
  bytes.Append(c.data, out);
  out += '}';
}

std::string EmbeddedDocumentMember(std::string_view kerchunk_json) {
  std::string_view doc = kerchunk_json;
  while (!doc.empty() && (doc.back() == '\n' || doc.back() == ' ')) doc.remove_suffix(1);
  if (doc.empty()) doc = R"({"version":1,"refs":{}})";
  return "\"kerchunk\":" + std::string(doc);
}

std::string SerializePacked(const PackedContents& c, bool readable) {
  PackedTextWriter writer(readable, 0);
  for (const GeneratorColumns& g : c.generators) writer.Add(g);
  std::string inline_text;
  for (const InlineColumns& v : c.inline_values) {
    if (!inline_text.empty()) inline_text += ",\n";
    AppendInline(inline_text, v, readable);
  }
  const std::string document = EmbeddedDocumentMember(c.kerchunk_json);
  const uint64_t version = FormatVersionFor(c.inline_values);
  return writer.Finish(c.checksum, document, c.urls, inline_text, version);
}

}  // namespace kerchunk::pack::internal
