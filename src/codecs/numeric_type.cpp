#include "codecs/numeric_type.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace kerchunk::codecs::internal {
namespace {

bool HostIsBigEndian() { return std::endian::native == std::endian::big; }

}  // namespace

std::optional<NumericType> NumericType::Parse(std::string_view dtype) {
  if (dtype.size() != 3) return std::nullopt;
  NumericType t;
  switch (dtype[0]) {
    case '<':
      t.big_endian = false;
      break;
    case '>':
      t.big_endian = true;
      break;
    case '|':
    case '=':
      t.big_endian = HostIsBigEndian();
      break;
    default:
      return std::nullopt;
  }
  t.kind = dtype[1];
  if (t.kind != 'i' && t.kind != 'u' && t.kind != 'f') return std::nullopt;
  if (dtype[2] != '1' && dtype[2] != '2' && dtype[2] != '4' && dtype[2] != '8') {
    return std::nullopt;
  }
  t.size = static_cast<uint8_t>(dtype[2] - '0');
  if (t.kind == 'f' && t.size < 4) return std::nullopt;
  // "|" is only meaningful for one-byte types; numpy writes "<i2", never "|i2".
  if (dtype[0] == '|' && t.size != 1) return std::nullopt;
  return t;
}

uint64_t NumericType::LoadBits(const char* bytes, uint64_t i) const {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes) + i * size;
  uint64_t v = 0;
  for (unsigned k = 0; k < size; ++k) {
    unsigned shift = 8 * (big_endian ? size - 1 - k : k);
    v |= uint64_t{p[k]} << shift;
  }
  return v;
}

void NumericType::StoreBits(char* bytes, uint64_t i, uint64_t bits) const {
  auto* p = reinterpret_cast<unsigned char*>(bytes) + i * size;
  for (unsigned k = 0; k < size; ++k) {
    unsigned shift = 8 * (big_endian ? size - 1 - k : k);
    p[k] = static_cast<unsigned char>(bits >> shift);
  }
}

int64_t NumericType::LoadSigned(const char* bytes, uint64_t i) const {
  uint64_t bits = LoadBits(bytes, i);
  if (kind == 'i' && size < 8) {
    uint64_t sign = uint64_t{1} << (8 * size - 1);
    bits = (bits ^ sign) - sign;  // sign-extend
  }
  return static_cast<int64_t>(bits);
}

double NumericType::LoadDouble(const char* bytes, uint64_t i) const {
  uint64_t bits = LoadBits(bytes, i);
  if (kind == 'f') {
    if (size == 4) return std::bit_cast<float>(static_cast<uint32_t>(bits));
    return std::bit_cast<double>(bits);
  }
  if (kind == 'u') return static_cast<double>(bits);
  return static_cast<double>(LoadSigned(bytes, i));
}

void NumericType::StoreDouble(char* bytes, uint64_t i, double v) const {
  if (size == 4) {
    StoreBits(bytes, i, std::bit_cast<uint32_t>(static_cast<float>(v)));
  } else {
    StoreBits(bytes, i, std::bit_cast<uint64_t>(v));
  }
}

bool NumericType::IntegerFits(double v) const {
  if (!std::isfinite(v)) return false;
  if (kind == 'u') {
    return v >= 0 && v < std::ldexp(1.0, 8 * size);
  }
  double limit = std::ldexp(1.0, 8 * size - 1);
  return v >= -limit && v < limit;
}

}  // namespace kerchunk::codecs::internal
