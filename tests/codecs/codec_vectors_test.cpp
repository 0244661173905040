// Known vectors: bytes numcodecs 0.11 (Debian's python3-numcodecs, system libblosc 1.21.3)
// wrote, decoded here and, where the encoder is deterministic, re-encoded to the same bytes.
//
// Generated with /usr/bin/python3:
//   import numcodecs, numpy as np, base64
//   raw = np.arange(16, dtype='<i4')
//   b64 = lambda b: base64.b64encode(bytes(b)).decode()
//   b64(numcodecs.Zlib(1).encode(raw)); b64(numcodecs.GZip(1).encode(raw))
//   b64(numcodecs.Zstd(1).encode(raw)); b64(numcodecs.Shuffle(4).encode(raw))
//   b64(numcodecs.Blosc('zstd', 3, 2).encode(np.arange(512, dtype='<i4')))
//   b64(numcodecs.Blosc('lz4', 5, 1).encode(np.arange(512, dtype='<i4')))
//   d = np.array([100, 101, 99, -5, 32767, -32768], dtype='<i2')
//   b64(numcodecs.Delta('<i2').encode(d))
//   f = np.array([1000.0, 1000.12, 999.95, 1001.234, -3.2], dtype='<f8')
//   c = numcodecs.FixedScaleOffset(offset=1000, scale=10, dtype='<f8', astype='<i2')
//   b64(c.encode(f)); b64(c.decode(c.encode(f)))
#include <gtest/gtest.h>

#include <cstring>

#include "kerchunk/codecs/codec.h"
#include "kerchunk/util/base64.h"

namespace kerchunk::codecs {
namespace {

std::string B64(std::string_view text) { return *Base64Decode(text); }

std::string Arange32(int n) {
  std::string out(4 * n, '\0');
  for (int i = 0; i < n; ++i) {
    uint32_t v = static_cast<uint32_t>(i);
    for (int k = 0; k < 4; ++k) out[4 * i + k] = static_cast<char>(v >> (8 * k));
  }
  return out;
}

std::shared_ptr<const Codec> Make(std::string_view config_json, uint64_t itemsize = 4) {
  auto config = json::Value::Parse(config_json);
  EXPECT_TRUE(config.ok());
  auto codec = MakeCodec(*config, CodecContext{itemsize});
  EXPECT_TRUE(codec.ok()) << codec.status().ToString();
  return *codec;
}

void ExpectDecodes(const Codec& codec, std::string_view encoded, std::string_view raw) {
  auto decoded = codec.Decode(encoded, DecodedSize::Exactly(raw.size()));
  ASSERT_TRUE(decoded.ok()) << codec.id() << ": " << decoded.status().ToString();
  EXPECT_EQ(*decoded, raw) << codec.id();
}

TEST(CodecVectorsTest, Zlib) {
  auto codec = Make(R"({"id": "zlib", "level": 1})");
  std::string encoded = B64("eAENwwkSwBAQALB1VIvi/7+VzCQiIpktVh+br5/d4fR3uT1eCuAAeQ==");
  ExpectDecodes(*codec, encoded, Arange32(16));
  EXPECT_EQ(*codec->Encode(Arange32(16)), encoded);  // same zlib, same level
}

TEST(CodecVectorsTest, Gzip) {
  // gzip headers carry a timestamp, so only decoding is compared.
  auto codec = Make(R"({"id": "gzip", "level": 1})");
  ExpectDecodes(*codec,
                B64("H4sIAKIjAmsE/w3DCRLAEBAAsHVUi+L/v5XMJCIimS1WH5uvn93h9He5PV7JfInhQAAAAA=="),
                Arange32(16));
}

TEST(CodecVectorsTest, Zstd) {
  auto codec = Make(R"({"id": "zstd", "level": 1})");
  std::string encoded = B64("KLUv/SBA7QAAAkQGjlIREREREREQb2dfV09HPzcvJx8XDwe/DwA=");
  ExpectDecodes(*codec, encoded, Arange32(16));
  EXPECT_EQ(*codec->Encode(Arange32(16)), encoded);
}

TEST(CodecVectorsTest, Shuffle) {
  auto codec = Make(R"({"id": "shuffle", "elementsize": 4})");
  std::string encoded = B64(
      "AAECAwQFBgcICQoLDA0ODwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==");
  ExpectDecodes(*codec, encoded, Arange32(16));
  EXPECT_EQ(*codec->Encode(Arange32(16)), encoded);
}

TEST(CodecVectorsTest, BloscZstdBitshuffle) {
  auto codec =
      Make(R"({"id": "blosc", "cname": "zstd", "clevel": 3, "shuffle": 2, "blocksize": 0})");
  std::string encoded = B64(
      "AgGUBAAIAAAACAAAUwAAABQAAAA7AAAAKLUv/WAAB40BAGiqzPAA/wD//wD/AP8AEKCw9gEQg7wBvPk1NHV06DDETPKP"
      "uCFky1wpjJQlRCKS/gE=");
  ExpectDecodes(*codec, encoded, Arange32(512));
  EXPECT_EQ(*codec->Encode(Arange32(512)), encoded);  // numcodecs links the same libblosc
}

TEST(CodecVectorsTest, BloscLz4Shuffle) {
  auto codec = Make(R"({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1})");
  std::string encoded = B64(
      "AgEhBAAIAAAACAAAVwEAABQAAAALAQAA//EAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkq"
      "KywtLi8wMTIzNDU2Nzg5Ojs8PT4/QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl9gYWJjZGVmZ2hpamtsbW5v"
      "cHFyc3R1dnd4eXp7fH1+f4CBgoOEhYaHiImKi4yNjo+QkZKTlJWWl5iZmpucnZ6foKGio6SlpqeoqaqrrK2ur7CxsrO0"
      "tba3uLm6u7y9vr/AwcLDxMXGx8jJysvMzc7P0NHS09TV1tfY2drb3N3e3+Dh4uPk5ebn6Onq6+zt7u/w8fLz9PX29/j5"
      "+vv8/f7/AAHoUPv8/f7/EAAAAB8AAQDsHwEBAOdQAQEBAQEMAAAAHwABAP/oUAAAAAAADAAAAB8AAQD/"
      "6FAAAAAAAA==");
  ExpectDecodes(*codec, encoded, Arange32(512));
  EXPECT_EQ(*codec->Encode(Arange32(512)), encoded);
}

TEST(CodecVectorsTest, Delta) {
  auto codec = Make(R"({"id": "delta", "dtype": "<i2", "astype": "<i2"})", 2);
  std::string raw = B64("ZABlAGMA+///fwCA");
  std::string encoded = B64("ZAABAP7/mP8EgAEA");  // differences wrap around in int16
  ExpectDecodes(*codec, encoded, raw);
  EXPECT_EQ(*codec->Encode(raw), encoded);
}

TEST(CodecVectorsTest, FixedScaleOffset) {
  auto codec = Make(
      R"({"id": "fixedscaleoffset", "scale": 10, "offset": 1000, "dtype": "<f8", "astype": "<i2"})",
      8);
  std::string raw = B64("AAAAAABAj0ApXI/C9UCPQJqZmZmZP49AHVpkO99Jj0CamZmZmZkJwA==");
  std::string encoded = B64("AAABAAAADADQ2A==");
  std::string decoded = B64("AAAAAABAj0DNzMzMzECPQAAAAAAAQI9AmpmZmZlJj0AAmpmZmZkJwA==");
  EXPECT_EQ(*codec->Encode(raw), encoded);
  ExpectDecodes(*codec, encoded, decoded);
}

}  // namespace
}  // namespace kerchunk::codecs
