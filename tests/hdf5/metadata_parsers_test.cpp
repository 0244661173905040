// Unit tests of the native metadata parsers on hand-built bytes: each structure decodes what
// the specification says, and truncated or corrupted input gives a one-line DataLoss naming the
// structure and the byte address, never a crash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "byte_builder.h"
#include "kerchunk/hdf5/attribute.h"
#include "kerchunk/hdf5/dataspace.h"
#include "kerchunk/hdf5/datatype.h"
#include "kerchunk/hdf5/fill_value.h"
#include "kerchunk/hdf5/filter_pipeline.h"
#include "kerchunk/hdf5/fractal_heap.h"
#include "kerchunk/hdf5/global_heap.h"
#include "kerchunk/hdf5/link.h"
#include "kerchunk/hdf5/local_heap.h"
#include "kerchunk/hdf5/symbol_table.h"

namespace kerchunk::testing {
namespace {

using hdf5::Datatype;
using hdf5::DatatypeClass;
using ::testing::HasSubstr;

// A File over hand-built bytes: 8-byte offsets and lengths, base address 0.
hdf5::File FileOver(const Bytes& b) { return hdf5::File(b.span(), hdf5::Superblock{}); }

ByteReader ReaderOver(const Bytes& b, uint64_t base = 1000) {
  return ByteReader(b.span(), base, "test message");
}

// Every prefix of `b` shorter than it must fail cleanly: one line, DataLoss, an address.
template <typename Parse>
void ExpectEveryTruncationFails(const Bytes& b, Parse parse) {
  for (size_t keep = 0; keep < b.size(); ++keep) {
    Bytes cut;
    cut.Str(std::string_view(b.str()).substr(0, keep));
    Status s = parse(cut);
    ASSERT_FALSE(s.ok()) << "accepted " << keep << " of " << b.size() << " bytes";
    EXPECT_EQ(s.code(), StatusCode::kDataLoss) << s.ToString();
    EXPECT_THAT(s.message(), HasSubstr("at address")) << s.ToString();
    EXPECT_EQ(s.message().find('\n'), std::string::npos);
  }
}

// ---- dataspace ----------------------------------------------------------------------------

Bytes SimpleDataspaceV2() {
  return std::move(Bytes().U8(2).U8(2).U8(1).U8(1).U64(5).U64(7).U64(~uint64_t{0}).U64(7));
}

TEST(Dataspace, Version2WithMaximaAndUnlimited) {
  const Bytes b = SimpleDataspaceV2();
  auto space = hdf5::DecodeDataspace(FileOver(b), ReaderOver(b));
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  EXPECT_EQ(space->space_class, hdf5::DataspaceClass::kSimple);
  EXPECT_EQ(space->dims, (std::vector<uint64_t>{5, 7}));
  EXPECT_EQ(space->max_dims, (std::vector<uint64_t>{hdf5::kUnlimitedExtent, 7}));
  EXPECT_EQ(*space->ElementCount(), 35u);
}

TEST(Dataspace, Version1ScalarAndVersion2Null) {
  Bytes v1;
  v1.U8(1).U8(0).U8(0).Zeros(5);
  auto scalar = hdf5::DecodeDataspace(FileOver(v1), ReaderOver(v1));
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->space_class, hdf5::DataspaceClass::kScalar);
  EXPECT_EQ(*scalar->ElementCount(), 1u);
  Bytes null;
  null.U8(2).U8(0).U8(0).U8(2);
  auto empty = hdf5::DecodeDataspace(FileOver(null), ReaderOver(null));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty->ElementCount(), 0u);
}

TEST(Dataspace, TruncatedAndCorrupt) {
  const Bytes b = SimpleDataspaceV2();
  ExpectEveryTruncationFails(b, [](const Bytes& cut) {
    return hdf5::DecodeDataspace(FileOver(cut), ReaderOver(cut)).status();
  });
  Bytes bad_version = b;
  bad_version.str()[0] = 7;
  auto s = hdf5::DecodeDataspace(FileOver(bad_version), ReaderOver(bad_version)).status();
  EXPECT_EQ(s.message(), "test message at address 1001: expected version 1 or 2, got 7");
  Bytes big_rank = b;
  big_rank.str()[1] = 40;
  EXPECT_THAT(hdf5::DecodeDataspace(FileOver(big_rank), ReaderOver(big_rank)).status().message(),
              HasSubstr("expected rank 0..32, got 40"));
}

// ---- datatype -----------------------------------------------------------------------------

// Class/version byte, 24 bits, size.
Bytes& TypeHeader(Bytes& b, int cls, int version, uint32_t bits, uint32_t size) {
  return b.U8(version << 4 | cls).Int(bits, 3).U32(size);
}

Bytes BigEndianInt16() {
  Bytes b;
  TypeHeader(b, 0, 1, 0x09, 2).U16(0).U16(16);
  return b;
}

Bytes Float64() {
  Bytes b;
  TypeHeader(b, 1, 1, 0x3F20, 8).U16(0).U16(64).U8(52).U8(11).U8(0).U8(52).U32(1023);
  return b;
}

TEST(Datatype, AtomicClasses) {
  Bytes i16 = BigEndianInt16();
  ByteReader r = ReaderOver(i16);
  auto t = hdf5::DecodeDatatype(r);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->type_class, DatatypeClass::kFixedPoint);
  EXPECT_EQ(t->byte_order, hdf5::ByteOrder::kBig);
  EXPECT_TRUE(t->is_signed);
  EXPECT_EQ(t->precision, 16);
  EXPECT_EQ(r.remaining(), 0u);
  Bytes f64 = Float64();
  ByteReader fr = ReaderOver(f64);
  auto f = hdf5::DecodeDatatype(fr);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->sign_location, 63);
  EXPECT_EQ(f->exponent_location, 52);
  EXPECT_EQ(f->mantissa_size, 52);
  Bytes vlen_string;
  TypeHeader(vlen_string, 9, 1, 0x0101, 16);
  TypeHeader(vlen_string, 3, 1, 0x10, 1);  // base: UTF-8 character
  ByteReader vr = ReaderOver(vlen_string);
  auto v = hdf5::DecodeDatatype(vr);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_TRUE(v->IsVlenString());
  EXPECT_EQ(v->charset, 1);
}

Bytes CompoundV1() {
  Bytes b;
  TypeHeader(b, 6, 1, 2, 12);
  b.Str("a").Zeros(7).U32(0).U8(0).Zeros(3).U32(0).U32(0).Zeros(16);
  TypeHeader(b, 0, 1, 0x08, 4).U16(0).U16(32);
  b.Str("bb").Zeros(6).U32(4).U8(0).Zeros(3).U32(0).U32(0).Zeros(16);
  TypeHeader(b, 1, 1, 0x3F20, 8).U16(0).U16(64).U8(52).U8(11).U8(0).U8(52).U32(1023);
  return b;
}

TEST(Datatype, CompoundEnumArray) {
  Bytes c = CompoundV1();
  ByteReader r = ReaderOver(c);
  auto t = hdf5::DecodeDatatype(r);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->members.size(), 2u);
  EXPECT_EQ(t->members[1].name, "bb");
  EXPECT_EQ(t->members[1].offset, 4u);
  EXPECT_EQ(t->members[1].type[0].type_class, DatatypeClass::kFloatingPoint);
  Bytes e;
  TypeHeader(e, 8, 3, 2, 1);
  TypeHeader(e, 0, 1, 0x08, 1).U16(0).U16(8);
  e.Str("FALSE").U8(0).Str("TRUE").U8(0).U8(0).U8(1);
  ByteReader er = ReaderOver(e);
  auto en = hdf5::DecodeDatatype(er);
  ASSERT_TRUE(en.ok()) << en.status().ToString();
  EXPECT_EQ(en->enum_names, (std::vector<std::string>{"FALSE", "TRUE"}));
  Bytes a;
  TypeHeader(a, 10, 3, 0, 24).U8(2).U32(3).U32(1);
  a.Str(Float64().str());
  ByteReader ar = ReaderOver(a);
  auto arr = hdf5::DecodeDatatype(ar);
  ASSERT_TRUE(arr.ok()) << arr.status().ToString();
  EXPECT_EQ(arr->array_dims, (std::vector<uint32_t>{3, 1}));
  EXPECT_TRUE(hdf5::SameDatatype(*arr, *arr));
  EXPECT_FALSE(hdf5::SameDatatype(*arr, *en));
}

TEST(Datatype, TruncatedAndCorrupt) {
  ExpectEveryTruncationFails(CompoundV1(), [](const Bytes& cut) {
    ByteReader r = ReaderOver(cut);
    return hdf5::DecodeDatatype(r).status();
  });
  Bytes bad_class;
  TypeHeader(bad_class, 12, 1, 0, 4);
  ByteReader r = ReaderOver(bad_class);
  EXPECT_EQ(hdf5::DecodeDatatype(r).status().message(),
            "test message at address 1001: expected datatype class 0..10, got 12");
  // A member reaching past the compound's size.
  Bytes past = CompoundV1();
  past.str()[4] = 6;  // compound size 6: "bb" at offset 4 with 8 bytes does not fit
  ByteReader pr = ReaderOver(past);
  EXPECT_THAT(hdf5::DecodeDatatype(pr).status().message(), HasSubstr("exceeds the 6 bytes"));
  // Vlen of vlen of ... 40 deep: refused, not a stack overflow.
  Bytes deep;
  for (int i = 0; i < 40; ++i) TypeHeader(deep, 9, 1, 0, 16);
  TypeHeader(deep, 0, 1, 0, 1).U16(0).U16(8);
  ByteReader dr = ReaderOver(deep);
  EXPECT_THAT(hdf5::DecodeDatatype(dr).status().message(), HasSubstr("nested more than 32"));
}

// ---- fill value, filter pipeline ----------------------------------------------------------

TEST(FillValue, VersionsAndResolution) {
  Bytes v2;
  v2.U8(2).U8(2).U8(2).U8(1).U32(4).U32(0x3FC00000);
  auto defined = hdf5::DecodeFillValue(ReaderOver(v2));
  ASSERT_TRUE(defined.ok());
  EXPECT_EQ(defined->state, hdf5::FillValueState::kUserDefined);
  EXPECT_EQ(defined->value.size(), 4u);
  Bytes v3_default;
  v3_default.U8(3).U8(0x09);
  EXPECT_EQ(hdf5::DecodeFillValue(ReaderOver(v3_default))->state, hdf5::FillValueState::kDefault);
  Bytes v3_undefined;
  v3_undefined.U8(3).U8(0x10);
  EXPECT_EQ(hdf5::DecodeFillValue(ReaderOver(v3_undefined))->state,
            hdf5::FillValueState::kUndefined);
  // No message at all, or an old message with an empty value: undefined (libhdf5's rule).
  EXPECT_EQ(hdf5::ResolveFillValue(std::nullopt, std::nullopt)->state,
            hdf5::FillValueState::kUndefined);
  Bytes old;
  old.U32(0);
  EXPECT_EQ(hdf5::ResolveFillValue(std::nullopt, ReaderOver(old))->state,
            hdf5::FillValueState::kUndefined);
  ExpectEveryTruncationFails(
      v2, [](const Bytes& cut) { return hdf5::DecodeFillValue(ReaderOver(cut)).status(); });
}

Bytes PipelineV1() {
  Bytes b;
  b.U8(1).U8(2).Zeros(6);
  b.U16(1).U16(8).U16(0).U16(1).Str("deflate").U8(0).U32(6).Zeros(4);  // odd count: padding
  b.U16(2).U16(0).U16(1).U16(2).U32(4).U32(7);
  return b;
}

TEST(FilterPipeline, Versions1And2) {
  auto v1 = hdf5::DecodeFilterPipeline(ReaderOver(PipelineV1()));
  ASSERT_TRUE(v1.ok()) << v1.status().ToString();
  ASSERT_EQ(v1->size(), 2u);
  EXPECT_EQ((*v1)[0].name, "deflate");
  EXPECT_EQ((*v1)[0].client_data, (std::vector<uint32_t>{6}));
  EXPECT_EQ((*v1)[1].id, 2);
  EXPECT_EQ((*v1)[1].client_data, (std::vector<uint32_t>{4, 7}));
  Bytes v2;
  v2.U8(2).U8(2).U16(2).U16(1).U16(1).U32(4);
  v2.U16(32015).U16(5).U16(0).U16(1).Str("zstd").U8(0).U32(3);
  auto p = hdf5::DecodeFilterPipeline(ReaderOver(v2));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ((*p)[1].id, 32015);
  EXPECT_EQ((*p)[1].name, "zstd");
  ExpectEveryTruncationFails(PipelineV1(), [](const Bytes& cut) {
    return hdf5::DecodeFilterPipeline(ReaderOver(cut)).status();
  });
}

// ---- links, heaps, symbol tables -----------------------------------------------------------

TEST(Link, HardSoftAndInfo) {
  Bytes hard;
  hard.U8(1).U8(0x0C).U8(0).U64(3).U8(4).Str("temp").U64(4096);
  auto link = hdf5::DecodeLink(FileOver(hard), ReaderOver(hard));
  ASSERT_TRUE(link.ok()) << link.status().ToString();
  EXPECT_EQ(link->name, "temp");
  EXPECT_EQ(link->address, 4096u);
  Bytes soft;
  soft.U8(1).U8(0x08).U8(1).U8(1).Str("s").U16(2).Str("/x");
  EXPECT_EQ(hdf5::DecodeLink(FileOver(soft), ReaderOver(soft))->type, hdf5::LinkType::kSoft);
  ExpectEveryTruncationFails(hard, [](const Bytes& cut) {
    return hdf5::DecodeLink(FileOver(cut), ReaderOver(cut)).status();
  });
  Bytes info;
  info.U8(0).U8(1).U64(9).U64(100).U64(200);
  auto li = hdf5::DecodeLinkInfo(FileOver(info), ReaderOver(info));
  ASSERT_TRUE(li.ok());
  EXPECT_EQ(li->heap_address, 100u);
  EXPECT_EQ(li->name_index_address, 200u);
}

// A symbol table group at the start of a file image: local heap at 0 (data at 32), one leaf
// B-tree node at 128, one SNOD at 256 with two entries.
Bytes SymbolTableImage() {
  Bytes b;
  b.Str("HEAP").U8(0).Zeros(3).U64(32).U64(~uint64_t{0}).U64(32);
  b.Str(std::string("\0\0\0\0\0\0\0\0alpha\0\0\0beta\0\0\0\0", 24)).Zeros(8);
  b.PadTo(128);
  b.Str("TREE").U8(0).U8(0).U16(1).U64(~uint64_t{0}).U64(~uint64_t{0});
  b.U64(0).U64(256).U64(16);
  b.PadTo(256);
  b.Str("SNOD").U8(1).U8(0).U16(2);
  b.U64(8).U64(4000).U32(0).U32(0).Zeros(16);
  b.U64(16).U64(5000).U32(0).U32(0).Zeros(16);
  b.PadTo(5100);
  return b;
}

TEST(SymbolTable, ListsEntriesWithNamesFromTheLocalHeap) {
  const Bytes image = SymbolTableImage();
  Bytes message;
  message.U64(128).U64(0);
  auto links = hdf5::ReadSymbolTableLinks(FileOver(image), ReaderOver(message));
  ASSERT_TRUE(links.ok()) << links.status().ToString();
  ASSERT_EQ(links->size(), 2u);
  EXPECT_EQ((*links)[0].name, "alpha");
  EXPECT_EQ((*links)[0].address, 4000u);
  EXPECT_EQ((*links)[1].name, "beta");
}

TEST(SymbolTable, CorruptNodesFailWithTheirAddress) {
  Bytes message;
  message.U64(128).U64(0);
  Bytes cycle = SymbolTableImage();
  cycle.str()[8] = 1;  // the leaf claims level 1 ...
  cycle.str().replace(128 + 32, 8, std::string("\x80\0\0\0\0\0\0\0", 8));  // ... child = itself
  EXPECT_THAT(hdf5::ReadSymbolTableLinks(FileOver(cycle), ReaderOver(message)).status().message(),
              HasSubstr("at address 128"));
  Bytes bad_name = SymbolTableImage();
  bad_name.str().replace(256 + 8, 8, std::string("\x90\0\0\0\0\0\0\0", 8));  // offset 144
  EXPECT_EQ(hdf5::ReadSymbolTableLinks(FileOver(bad_name), ReaderOver(message)).status().message(),
            "local heap data segment at address 32: name offset 144 is outside its 32 bytes");
  Bytes bad_signature = SymbolTableImage();
  bad_signature.str()[256] = 'X';
  EXPECT_THAT(
      hdf5::ReadSymbolTableLinks(FileOver(bad_signature), ReaderOver(message)).status().message(),
      HasSubstr("symbol table node at address 256: expected signature \"SNOD\""));
  for (size_t keep : {size_t{20}, size_t{140}, size_t{300}}) {
    Bytes cut;
    cut.Str(std::string_view(SymbolTableImage().str()).substr(0, keep));
    Status s = hdf5::ReadSymbolTableLinks(FileOver(cut), ReaderOver(message)).status();
    EXPECT_EQ(s.code(), StatusCode::kDataLoss) << keep;
    EXPECT_THAT(s.message(), HasSubstr("at address")) << s.message();
  }
}

TEST(GlobalHeap, FindsObjectsAndRejectsBadCollections) {
  Bytes b;
  b.Zeros(16);  // the collection starts at address 16
  b.Str("GCOL").U8(1).Zeros(3).U64(4096);
  b.U16(1).U16(1).Zeros(4).U64(5).Str("hello").Zeros(3);
  b.U16(2).U16(1).Zeros(4).U64(2).Str("hi").Zeros(6);
  b.U16(0);
  b.PadTo(16 + 4096);
  const hdf5::File file = FileOver(b);
  auto second = hdf5::ReadGlobalHeapObject(file, {16, 2});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->size(), 2u);
  EXPECT_EQ(hdf5::ReadGlobalHeapObject(file, {16, 9}).status().code(), StatusCode::kNotFound);
  Bytes oversized = b;
  oversized.str().replace(16 + 16 + 8, 8, std::string("\xff\xff\0\0\0\0\0\0", 8));
  EXPECT_THAT(hdf5::ReadGlobalHeapObject(FileOver(oversized), {16, 1}).status().message(),
              HasSubstr("global heap at address"));
  Bytes short_file;
  short_file.Str(std::string_view(b.str()).substr(0, 100));
  EXPECT_THAT(hdf5::ReadGlobalHeapObject(FileOver(short_file), {16, 1}).status().message(),
              HasSubstr("global heap at address 16: 4096 bytes from there reach past the end"));
}

TEST(LocalHeap, StringsMustEndInsideTheSegment) {
  Bytes b;
  b.Str("HEAP").U8(0).Zeros(3).U64(8).U64(0).U64(32).Str("abcdefgh");
  auto heap = hdf5::LocalHeap::Open(FileOver(b), 0);
  ASSERT_TRUE(heap.ok()) << heap.status().ToString();
  EXPECT_EQ(heap->StringAt(0).status().message(),
            "local heap data segment at address 32: the name at offset 0 has no terminating NUL");
  Bytes version = b;
  version.str()[4] = 3;
  EXPECT_EQ(hdf5::LocalHeap::Open(FileOver(version), 0).status().message(),
            "local heap at address 5: expected version 0, got 3");
}

// A fractal heap whose root is one direct block: header at 0, direct block at 512.
Bytes FractalHeapImage() {
  Bytes b;
  b.Str("FRHP").U8(0).U16(7).U16(0).U8(0).U32(4096);
  b.U64(0).U64(~uint64_t{0});                    // next huge ID, huge B-tree
  b.U64(0).U64(~uint64_t{0}).U64(512).U64(512);  // free space, manager, managed, allocated
  b.U64(0).U64(1).U64(0).U64(0).U64(0).U64(0);   // iterator, counts and sizes
  b.U16(4).U64(512).U64(65536).U16(32).U16(0).U64(512).U16(0).U32(0);
  b.PadTo(512);
  b.Str("FHDB").U8(0).U64(0).U32(0);  // block offset 0 in 4 bytes (32-bit heap)
  b.Str("payload!");
  b.PadTo(1024);
  return b;
}

TEST(FractalHeap, ManagedAndTinyObjects) {
  const Bytes image = FractalHeapImage();
  const hdf5::File file = FileOver(image);  // outlives the heap, which refers to it
  auto heap = hdf5::FractalHeap::Open(file, 0);
  ASSERT_TRUE(heap.ok()) << heap.status().ToString();
  EXPECT_EQ(heap->heap_id_length(), 7u);
  // Managed: type 0, offset 17 (after the 17-byte block header), length 8 (2 bytes each).
  Bytes id;
  id.U8(0).U32(17).U16(8);
  auto object = heap->Object(id.span());
  ASSERT_TRUE(object.ok()) << object.status().ToString();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(object->data()), object->size()), "payload!");
  Bytes tiny;
  tiny.U8(0x20 | 2).Str("abc").Zeros(3);
  EXPECT_EQ(heap->Object(tiny.span())->size(), 3u);
  Bytes outside;
  outside.U8(0).U32(510).U16(8);
  EXPECT_THAT(heap->Object(outside.span()).status().message(),
              HasSubstr("fractal heap direct block at address 512"));
  Bytes reserved;
  reserved.U8(0x30).Zeros(6);
  EXPECT_EQ(heap->Object(reserved.span()).status().code(), StatusCode::kDataLoss);
}

TEST(FractalHeap, CorruptHeaders) {
  Bytes bad = FractalHeapImage();
  bad.str()[0] = 'X';
  EXPECT_THAT(hdf5::FractalHeap::Open(FileOver(bad), 0).status().message(),
              HasSubstr("fractal heap header at address 0: expected signature"));
  Bytes width = FractalHeapImage();
  width.str()[4 + 1 + 2 + 2 + 1 + 4 + 8 * 12] = 3;  // table width 3: not a power of two
  EXPECT_THAT(hdf5::FractalHeap::Open(FileOver(width), 0).status().message(),
              HasSubstr("do not form a table"));
  Bytes filtered = FractalHeapImage();
  filtered.str()[7] = 8;  // I/O filters present
  EXPECT_EQ(hdf5::FractalHeap::Open(FileOver(filtered), 0).status().code(),
            StatusCode::kUnsupported);
  for (size_t keep : {size_t{3}, size_t{60}, size_t{140}}) {
    Bytes cut;
    cut.Str(std::string_view(FractalHeapImage().str()).substr(0, keep));
    EXPECT_EQ(hdf5::FractalHeap::Open(FileOver(cut), 0).status().code(), StatusCode::kDataLoss);
  }
}

// ---- attribute messages --------------------------------------------------------------------

TEST(Attribute, Version1PaddedAndVersion3) {
  Bytes dtype = BigEndianInt16();
  Bytes space;
  space.U8(1).U8(1).U8(0).Zeros(5).U64(2);
  Bytes v1;
  v1.U8(1).U8(0).U16(6).U16(dtype.size()).U16(space.size());
  v1.Str("scale").U8(0).Zeros(2).Str(dtype.str()).Zeros(4).Str(space.str());
  v1.U16(0x0100).U16(0x0200);
  hdf5::HeaderMessage m;
  m.type = 0x000C;
  m.file_offset = 2000;
  m.data = v1.span();
  auto a = hdf5::DecodeAttribute(FileOver(v1), m);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->name, "scale");
  EXPECT_EQ(a->data.size(), 4u);
  EXPECT_EQ(a->data_offset, 2000u + v1.size() - 4);
  Bytes v3;
  v3.U8(3).U8(0).U16(2).U16(dtype.size()).U16(space.size()).U8(1);
  v3.Str("x").U8(0).Str(dtype.str()).Str(space.str()).U32(0);
  m.data = v3.span();
  ASSERT_TRUE(hdf5::DecodeAttribute(FileOver(v3), m).ok());
  // Data shorter than its elements.
  Bytes short_data = v3;
  short_data.str().pop_back();
  m.data = short_data.span();
  EXPECT_THAT(hdf5::DecodeAttribute(FileOver(short_data), m).status().message(),
              HasSubstr("attribute message at address"));
}

}  // namespace
}  // namespace kerchunk::testing
