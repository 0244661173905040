#include "column_codec.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>

#include "kerchunk/util/base64.h"
#include "kerchunk/util/byte_reader.h"

namespace kerchunk::pack::internal {
namespace {

// Reads one LEB128 value through the bounds-checked reader. Rejects encodings longer than 10
// bytes and a 10th byte carrying more than the 64th bit, so every value has one meaning.
Result<uint64_t> ReadVarint(ByteReader& reader) {
  uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t byte, reader.U8("varint"));
    if (shift == 63 && byte > 1) return reader.Error("varint does not fit in 64 bits");
    v |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return v;
  }
}

// Writes the LEB128 encoding of `v` (1-10 bytes) at `out`; returns its length.
size_t WriteVarint(char* out, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    out[n++] = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out[n++] = static_cast<char>(v);
  return n;
}

// The unsigned integer a binary column stores for `v` when `previous` came before it.
uint64_t StoredValue(ColumnType type, uint64_t v, uint64_t previous) {
  switch (type) {
    case ColumnType::kUnsigned:
      return v;
    case ColumnType::kSigned:
      return ZigZag(v);
    case ColumnType::kNondecreasing:
      return v - previous;
    case ColumnType::kDrifting:
      return ZigZag(v - previous);
  }
  return v;
}

void AppendDecimal(std::string& out, uint64_t v, bool as_signed) {
  char buf[24];
  auto [end, ec] = as_signed ? std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(v))
                             : std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

}  // namespace

void AppendVarint(std::string& out, uint64_t v) {
  char buf[10];
  out.append(buf, WriteVarint(buf, v));
}

std::string_view IntColumnCodec::encoding() const {
  switch (type_) {
    case ColumnType::kUnsigned:
      return "varint";
    case ColumnType::kSigned:
      return "zigzag";
    case ColumnType::kNondecreasing:
      return "delta";
    case ColumnType::kDrifting:
      return "delta-zigzag";
  }
  return "?";
}

uint64_t IntColumnCodec::EncodedBytes(std::span<const uint64_t> values) const {
  uint64_t bytes = 0, previous = 0;
  for (uint64_t v : values) {
    bytes += VarintSize(StoredValue(type_, v, previous));
    previous = v;
  }
  return bytes;
}

void AppendBlobReference(uint64_t offset, uint64_t length, std::string& out) {
  fmt::format_to(std::back_inserter(out), "\"@{}+{}\"", offset, length);
}

void ByteFields::Append(std::string_view bytes, std::string& out) const {
  if (blobs_) {
    AppendBlobReference(blobs_->size(), bytes.size(), out);
    blobs_->append(bytes);
    return;
  }
  out += '"';
  Base64EncodeTo(bytes, out);
  out += '"';
}

void IntColumnCodec::Encode(std::span<const uint64_t> values, bool readable, std::string& out,
                            const ByteFields& bytes_out) const {
  if (readable) {
    out += '[';
    bool as_signed = type_ == ColumnType::kSigned;
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) out += ',';
      AppendDecimal(out, values[i], as_signed);
    }
    out += ']';
    return;
  }
  out += "{\"";
  out += encoding();
  out += "\":";
  if (std::string* blobs = bytes_out.blobs()) {  // the varints themselves, in the blob section
    const size_t start = blobs->size();
    uint64_t previous = 0;
    for (uint64_t v : values) {
      char varint[10];
      blobs->append(varint, WriteVarint(varint, StoredValue(type_, v, previous)));
      previous = v;
    }
    AppendBlobReference(start, blobs->size() - start, out);
    out += '}';
    return;
  }
  // The varints are base64-encoded as they are made, a few kilobytes at a time (whole groups of
  // 3 bytes, so the pieces join into the encoding of the whole): a column of millions of values
  // needs no temporary copy.
  char bytes[4096 + 10];
  size_t fill = 0;
  uint64_t previous = 0;
  out += '"';
  for (uint64_t v : values) {
    fill += WriteVarint(bytes + fill, StoredValue(type_, v, previous));
    previous = v;
    if (fill >= 4096) {
      const size_t whole = fill / 3 * 3;
      Base64EncodeTo(std::string_view(bytes, whole), out);
      std::memmove(bytes, bytes + whole, fill - whole);
      fill -= whole;
    }
  }
  Base64EncodeTo(std::string_view(bytes, fill), out);
  out += "\"}";
}

Result<std::vector<uint64_t>> IntColumnCodec::DecodeBinary(std::string_view name,
                                                           std::span<const std::byte> bytes) const {
  if (name != encoding()) {
    return DataLossError("column \"{}\": expected encoding \"{}\", got \"{}\"", field_, encoding(),
                         name);
  }
  std::vector<uint64_t> values;
  values.reserve(bytes.size() / 2);
  ByteReader reader(bytes, 0, "bytes");
  uint64_t previous = 0;
  while (reader.remaining() > 0) {
    auto raw = ReadVarint(reader);
    if (!raw.ok()) return std::move(raw).status().Annotate("column \"{}\"", field_);
    uint64_t v = *raw;
    switch (type_) {
      case ColumnType::kUnsigned:
        break;
      case ColumnType::kSigned:
        v = UnZigZag(v);
        break;
      case ColumnType::kNondecreasing:
        if (v > UINT64_MAX - previous) {
          return DataLossError("column \"{}\": value {} overflows 64 bits", field_, values.size());
        }
        v += previous;
        break;
      case ColumnType::kDrifting:
        v = previous + UnZigZag(v);
        break;
    }
    values.push_back(v);
    previous = v;
  }
  return values;
}

Status IntColumnCodec::CheckPlain(std::span<const uint64_t> values) const {
  if (type_ != ColumnType::kNondecreasing) return OkStatus();
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i] < values[i - 1]) {
      return DataLossError("column \"{}\": value {} ({}) is less than the one before ({})", field_,
                           i, values[i], values[i - 1]);
    }
  }
  return OkStatus();
}

}  // namespace kerchunk::pack::internal
