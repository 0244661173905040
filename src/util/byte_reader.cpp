#include "kerchunk/util/byte_reader.h"

namespace kerchunk {

Status ByteReader::Seek(uint64_t position) {
  if (position > bytes_.size()) {
    return Error(fmt::format("cannot seek to offset {}: {} holds only {} bytes", position, what_,
                             bytes_.size()));
  }
  pos_ = position;
  return OkStatus();
}

Status ByteReader::Skip(uint64_t n) {
  if (n > remaining()) return Truncated(n, "skipped bytes");
  pos_ += n;
  return OkStatus();
}

Result<uint32_t> ByteReader::U32BE(std::string_view field) {
  KERCHUNK_ASSIGN_OR_RETURN(uint32_t v, U32(field));
  return std::endian::native == std::endian::little ? ByteSwap(v) : v;
}

Result<uint64_t> ByteReader::U64BE(std::string_view field) {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t v, U64(field));
  return std::endian::native == std::endian::little ? ByteSwap(v) : v;
}

Result<uint64_t> ByteReader::UVar(unsigned width, std::string_view field) {
  if (width == 0 || width > 8) {
    return Error(fmt::format("{}: integer width {} is outside 1..8", field, width));
  }
  if (remaining() < width) return Truncated(width, field);
  const uint64_t v = LoadLittleEndianVar(bytes_, pos_, width);
  pos_ += width;
  return v;
}

Result<std::span<const std::byte>> ByteReader::Bytes(uint64_t n, std::string_view field) {
  if (n > remaining()) return Truncated(n, field);
  auto out = bytes_.subspan(pos_, n);
  pos_ += n;
  return out;
}

Result<std::string_view> ByteReader::Chars(uint64_t n, std::string_view field) {
  KERCHUNK_ASSIGN_OR_RETURN(auto span, Bytes(n, field));
  return std::string_view(reinterpret_cast<const char*>(span.data()), span.size());
}

Status ByteReader::ExpectSignature(std::string_view signature) {
  uint64_t at = address();
  KERCHUNK_ASSIGN_OR_RETURN(std::string_view got, Chars(signature.size(), "signature"));
  if (got != signature) {
    std::string shown;
    for (char c : got) shown += (c >= 32 && c < 127) ? c : '?';
    return DataLossError("{} at address {}: expected signature \"{}\", got \"{}\"", what_, at,
                         signature, shown);
  }
  return OkStatus();
}

Result<ByteReader> ByteReader::Sub(uint64_t n, std::string_view what) {
  uint64_t at = address();
  KERCHUNK_ASSIGN_OR_RETURN(auto span, Bytes(n, what));
  return ByteReader(span, at, what);
}

Status ByteReader::ExpectEnd() const {
  if (remaining() != 0) {
    return Error(fmt::format("{} unparsed bytes at the end", remaining()));
  }
  return OkStatus();
}

Status ByteReader::Error(std::string_view message) const {
  return DataLossError("{} at address {}: {}", what_, address(), message);
}

Status ByteReader::Truncated(uint64_t wanted, std::string_view field) const {
  return DataLossError("{} at address {}: truncated {}: expected {} bytes, got {}", what_,
                       address(), field, wanted, remaining());
}

}  // namespace kerchunk
