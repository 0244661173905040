// The structure checks (metadata, xarray, keys, ranges) and the files check through
// VerifyReferences, on small reference sets written as Kerchunk JSON.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/verify/verify.h"
#include "support/test_env.h"

namespace kerchunk::verify {
namespace {

using ::testing::HasSubstr;

// A group with one uncompressed float32 array "t" of shape [4, 6], chunks [2, 3] (2 x 2 chunks
// of 24 bytes) whose chunks lie one after another in "f.nc", plus `extra` keys.
std::string Document(const std::string& extra = "", const std::string& zarray_changes = "") {
  std::string zarray = R"({"chunks":[2,3],"compressor":null,"dtype":"<f4","fill_value":0.0,)"
                       R"("filters":null,"order":"C","shape":[4,6],"zarr_format":2)" +
                       zarray_changes + "}";
  std::string json;
  for (char c : zarray) {
    if (c == '"') json += '\\';
    json += c;
  }
  return R"({"version":1,"refs":{".zgroup":"{\"zarr_format\":2}",)"
         R"("t/.zarray":")" +
         json +
         R"(",)"
         R"("t/.zattrs":"{\"_ARRAY_DIMENSIONS\":[\"y\",\"x\"]}",)"
         R"("t/0.0":["f.nc",100,24],"t/0.1":["f.nc",124,24],)"
         R"("t/1.0":["f.nc",148,24],"t/1.1":["f.nc",172,24])" +
         extra + "}}";
}

Report Verify(const std::string& text, VerifyOptions options = {}) {
  Result<ReferenceSet> refs = ParseKerchunkJson(text);
  EXPECT_TRUE(refs.ok()) << refs.status().ToString();
  options.input = "test.json";
  if (options.files == FilesMode::kAuto) options.files = FilesMode::kOff;
  Result<Report> report = VerifyReferences(*refs, options);
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  return report.ok() ? *std::move(report) : Report();
}

// Every kept message of one check, one a line.
std::string Messages(const Report& report, Check check) {
  std::string out;
  for (const CaseLog* c : report.Cases()) {
    if (c->check() != check) continue;
    for (const Finding& f : c->findings()) out += f.message + "\n";
  }
  return out;
}

TEST(StructureTest, AValidSetPasses) {
  Report r = Verify(Document());
  EXPECT_TRUE(r.passed()) << Messages(r, Check::kMetadata) << Messages(r, Check::kRanges);
  EXPECT_EQ(r.Warnings(), 0u);
  EXPECT_EQ(r.Examined(Check::kKeys), 4u);
  EXPECT_EQ(r.Examined(Check::kRanges), 4u);
  EXPECT_FALSE(r.ran(Check::kFiles));
}

TEST(StructureTest, ChunkKeysOutsideTheGridOrNotCanonical) {
  Report r = Verify(Document(R"(,"t/2.0":["f.nc",300,24],"t/01.1":["f.nc",400,24],)"
                             R"("t/0.1.0":["f.nc",500,24],"t/0/1":["f.nc",600,24])"));
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.Failures(Check::kKeys), 4u);
  const std::string m = Messages(r, Check::kKeys);
  EXPECT_THAT(m, HasSubstr("t/2.0: chunk key of array t lies outside the chunk grid: index 2 in "
                           "dimension 0, which has 2 chunks (shape [4, 6], chunks [2, 3])"));
  EXPECT_THAT(m, HasSubstr("t/01.1: chunk key of array t index \"01\" has a leading zero; zarr "
                           "only reads \"1\""));
  EXPECT_THAT(m, HasSubstr("t/0.1.0: chunk key of array t has 3 indices, but the array has 2 "
                           "dimensions"));
  EXPECT_THAT(m, HasSubstr("t/0/1: chunk key of array t uses '/' between indices, but the "
                           "array's dimension_separator is '.'"));
}

TEST(StructureTest, ReferencesOfAnArrayWithoutZarray) {
  Report r = Verify(Document(R"(,"u/0.0":["f.nc",300,24],"g/v/3":["f.nc",400,24])"));
  const std::string m = Messages(r, Check::kKeys);
  EXPECT_THAT(m, HasSubstr("u/0.0: reference to array u, which has no u/.zarray"));
  EXPECT_THAT(m, HasSubstr("g/v/3: reference to array g/v, which has no g/v/.zarray"));
}

TEST(StructureTest, InvalidZarrayFields) {
  EXPECT_THAT(Messages(Verify(Document("", R"(,"dtype":"<f3")")), Check::kMetadata),
              HasSubstr("t/.zarray: dtype \"<f3\": a float has 2, 4, 8 or 16 bytes"));
  EXPECT_THAT(Messages(Verify(Document("", R"(,"fill_value":"nan")")), Check::kMetadata),
              HasSubstr("t/.zarray: fill_value \"nan\" is neither a number nor"));
  EXPECT_THAT(Messages(Verify(Document("", R"(,"compressor":{"id":"gzipp"})")), Check::kMetadata),
              HasSubstr("codec id \"gzipp\" is not known to numcodecs"));
  EXPECT_THAT(Messages(Verify(Document("", R"(,"shape":[4])")), Check::kMetadata),
              HasSubstr("shape has rank 1 but chunks has rank 2"));
  // The chunks of an array whose .zarray is invalid cannot be judged against it.
  Report r = Verify(Document("", R"(,"dtype":"<f3")"));
  EXPECT_FALSE(r.passed());
}

// A document whose reference `from` (e.g. "[\"f.nc\",148,24]") reads `to` instead.
std::string Replaced(std::string doc, std::string_view from, std::string_view to) {
  doc.replace(doc.find(from), from.size(), to);
  return doc;
}

TEST(StructureTest, RangesOverlapOrHaveTheWrongSize) {
  Report r = Verify(Replaced(Document(), "[\"f.nc\",148,24]", "[\"f.nc\",147,24]"));
  EXPECT_EQ(r.Failures(Check::kRanges), 1u);
  EXPECT_THAT(Messages(r, Check::kRanges),
              HasSubstr("t/1.0: bytes [147, 171) of f.nc overlap bytes [124, 148) of t/0.1"));

  Report sizes = Verify(Replaced(Document(), "[\"f.nc\",172,24]", "[\"f.nc\",172,20]"));
  EXPECT_THAT(Messages(sizes, Check::kRanges),
              HasSubstr("t/1.1: bytes [172, 192) of f.nc are 20 bytes, but an uncompressed chunk "
                        "of t (2 x 3 x 4-byte items) is 24 bytes"));
}

TEST(StructureTest, EmptyRange) {
  EXPECT_THAT(Messages(Verify(Replaced(Document(), "[\"f.nc\",172,24]", "[\"f.nc\",172,0]")),
                       Check::kRanges),
              HasSubstr("t/1.1: empty byte range at offset 172 of f.nc"));
}

TEST(StructureTest, GroupsAndAttributes) {
  Report r = Verify(Document(R"(,"a/b/.zgroup":"{\"zarr_format\":2}",)"
                             R"("c/.zattrs":"{}","t/.zattrs_bad/.zattrs":"[1]")"));
  const std::string m = Messages(r, Check::kMetadata);
  EXPECT_THAT(m, HasSubstr("a/.zgroup is missing, so zarr cannot open a/b inside it"));
  EXPECT_THAT(m, HasSubstr("c/.zattrs: attributes of nothing: neither c/.zarray nor c/.zgroup "
                           "exists"));
  EXPECT_THAT(m, HasSubstr("t/.zattrs_bad/.zattrs: expected a JSON object, got [1]"));
}

TEST(StructureTest, ConsolidatedMetadataMustAgree) {
  Report r = Verify(Document(
      R"(,".zmetadata":"{\"metadata\":{\".zgroup\":{\"zarr_format\":2},)"
      R"(\"t/.zattrs\":{\"_ARRAY_DIMENSIONS\":[\"y\",\"z\"]}},\"zarr_consolidated_format\":1}")"));
  EXPECT_THAT(Messages(r, Check::kMetadata),
              HasSubstr(".zmetadata: its copy of t/.zattrs differs from the key itself"));
  EXPECT_EQ(r.Failures(Check::kMetadata), 1u);
}

TEST(StructureTest, XarrayRulesWarnUnlessStrict) {
  const std::string doc = Document(
      R"(,"u/.zarray":"{\"chunks\":[5],\"compressor\":null,\"dtype\":\"<f4\",)"
      R"(\"fill_value\":null,\"filters\":null,\"order\":\"C\",\"shape\":[5],\"zarr_format\":2}",)"
      R"("u/.zattrs":"{\"_ARRAY_DIMENSIONS\":[\"x\"]}",)"
      R"("v/.zarray":"{\"chunks\":[5],\"compressor\":null,\"dtype\":\"<f4\",)"
      R"(\"fill_value\":null,\"filters\":null,\"order\":\"C\",\"shape\":[5],\"zarr_format\":2}")");
  Report warn = Verify(doc);
  EXPECT_TRUE(warn.passed());
  EXPECT_EQ(warn.Warnings(), 2u);
  const std::string m = Messages(warn, Check::kXarray);
  EXPECT_THAT(m, HasSubstr("u/.zattrs: dimension \"x\" has length 5 here but 6 in t; xarray "
                           "cannot open the group"));
  EXPECT_THAT(m, HasSubstr("v (no .zattrs) has no _ARRAY_DIMENSIONS"));
  VerifyOptions strict;
  strict.xarray = true;
  EXPECT_FALSE(Verify(doc, strict).passed());
}

TEST(StructureTest, FilesExistAndHoldEveryRange) {
  testing::TempDir dir;
  {
    std::ofstream f(dir / "f.nc", std::ios::binary);
    f << std::string(190, 'x');  // t/1.1 needs 196 bytes
  }
  const std::string doc = Replaced(Document(), "[\"f.nc\",148,24]", "[\"g.nc\",148,24]");
  VerifyOptions options;
  options.files = FilesMode::kOn;
  options.rewrites.push_back({"f.nc", dir / "f.nc"});
  options.rewrites.push_back({"g.nc", dir / "g.nc"});
  Report r = Verify(doc, options);
  const std::string m = Messages(r, Check::kFiles);
  EXPECT_THAT(m, HasSubstr("t/1.1: bytes [172, 196) lie beyond the end of f.nc (local " +
                           (dir / "f.nc") + ") (190 bytes)"));
  EXPECT_THAT(m, HasSubstr("t/1.0: g.nc (local " + (dir / "g.nc") +
                           ") does not exist (1 reference into it)"));
  EXPECT_EQ(r.Failures(Check::kFiles), 2u);
}

ReferenceSet WithUrl(const std::string& url) {
  std::string doc = Document();
  for (size_t at; (at = doc.find("\"f.nc\"")) != std::string::npos;) {
    doc.replace(at, 6, "\"" + url + "\"");
  }
  Result<ReferenceSet> refs = ParseKerchunkJson(doc);
  EXPECT_TRUE(refs.ok()) << refs.status().message();
  return refs.ok() ? *std::move(refs) : ReferenceSet();
}

TEST(StructureTest, UrlsOfUnknownSchemesNeedARewriteForFilesOn) {
  VerifyOptions options;
  options.input = "x";
  options.files = FilesMode::kOn;
  Result<Report> r = VerifyReferences(WithUrl("gs://b/f.nc"), options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("--files needs the files, but 1 URL such as "
                                              "gs://b/f.nc has no local path"));
}

// An http(s):// or s3:// file that cannot be reached is a files problem naming the URL (as a
// missing local file is), not an error of the run; its requests are counted.
TEST(StructureTest, AnUnreachableRemoteFileIsAFilesProblem) {
  VerifyOptions options;
  options.input = "x";
  options.files = FilesMode::kOn;
  options.remote.attempts = 1;
  options.remote.connect_timeout_s = 2;
  // Port 1 of the loopback interface: nothing listens, the connection is refused at once.
  Result<Report> r = VerifyReferences(WithUrl("http://127.0.0.1:1/f.nc"), options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->passed());
  EXPECT_GT(r->Failures(Check::kFiles), 0u);
  std::ostringstream text;
  WriteTextReport(*r, 20, text);
  EXPECT_THAT(text.str(), HasSubstr("http://127.0.0.1:1/f.nc"));
  EXPECT_EQ(r->facts().remote_files, 1u);
  EXPECT_EQ(r->facts().remote_requests, 1u);
}

// A plain verify (files auto) does not go to the network: remote URLs are noted.
TEST(StructureTest, RemoteUrlsAreNotFetchedUnlessAsked) {
  VerifyOptions options;
  options.input = "x";
  Result<Report> r = VerifyReferences(WithUrl("http://127.0.0.1:1/f.nc"), options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->passed());
  EXPECT_EQ(r->facts().remote_requests, 0u);
  ASSERT_EQ(r->notes().size(), 1u);
  EXPECT_THAT(r->notes()[0], HasSubstr("not checked: no local path; give --files"));
}

}  // namespace
}  // namespace kerchunk::verify
