// The report model and its three writers.
#include "kerchunk/verify/report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "kerchunk/json/json_value.h"

namespace kerchunk::verify {
namespace {

using ::testing::HasSubstr;

Report Sample(size_t keep = 20) {
  Report r(keep);
  r.facts().path = "refs.json";
  r.facts().format = "Kerchunk JSON";
  r.facts().keys = 10;
  CaseLog doc = r.NewCase(Check::kDocument, "");
  doc.Examined();
  r.Add(std::move(doc));
  CaseLog keys = r.NewCase(Check::kKeys, "tas");
  keys.Examined(5);
  keys.Fail("tas/9.0", "tas/9.0: outside <the> grid & \"more\"");
  r.Add(std::move(keys));
  CaseLog files = r.NewCase(Check::kFiles, "pr");
  files.Examined(3);
  files.Fail("pr/0", "pr/0: bytes [0, 10) lie beyond the end of x.nc (5 bytes)");
  files.Skip(2, "remote URL without --rewrite");
  r.Add(std::move(files));
  CaseLog decode = r.NewCase(Check::kDecode, "lz");
  decode.Skip(4, "codecs not supported: lz4");
  r.Add(std::move(decode));
  CaseLog xarray = r.NewCase(Check::kXarray, "tas");
  xarray.Examined();
  xarray.Fail("tas/.zattrs", "tas/.zattrs: dimension \"x\" conflicts");
  r.Add(std::move(xarray));
  r.SetAdvisory(Check::kXarray, true);
  return r;
}

TEST(CaseLogTest, KeepsTheFirstFindingsAndCountsAll) {
  CaseLog log(Check::kRanges, "a", 2);
  for (int i = 0; i < 5; ++i) log.Fail(std::to_string(i), "m" + std::to_string(i));
  log.FailWith([] { return Finding{"never", "built"}; });
  EXPECT_EQ(log.failures(), 6u);
  ASSERT_EQ(log.findings().size(), 2u);
  EXPECT_EQ(log.findings()[1].key, "1");
  CaseLog other(Check::kRanges, "a", 2);
  other.Examined(7);
  other.Skip(3, "why");
  log.Merge(std::move(other));
  EXPECT_EQ(log.examined(), 7u);
  EXPECT_EQ(log.skipped(), 3u);
  EXPECT_EQ(log.skip_reason(), "why");
}

TEST(ReportTest, SameCaseMergesAndAdvisoryChecksDoNotFail) {
  Report r = Sample();
  CaseLog more = r.NewCase(Check::kKeys, "tas");
  more.Fail("tas/10.0", "again");
  r.Add(std::move(more));
  EXPECT_EQ(r.Failures(Check::kKeys), 2u);
  EXPECT_EQ(r.Failures(), 3u);
  EXPECT_EQ(r.Warnings(), 1u);
  EXPECT_EQ(r.Cases().size(), 5u);
  EXPECT_EQ(r.Cases()[1]->check(), Check::kXarray);  // ordered by check
  EXPECT_FALSE(r.passed());
}

TEST(ReportTest, TextEndsWithTheVerdict) {
  std::ostringstream out;
  WriteTextReport(Sample(), 20, out);
  const std::string text = out.str();
  EXPECT_THAT(text, HasSubstr("  keys      1 problem      5 chunk keys\n"));
  EXPECT_THAT(text, HasSubstr("  xarray    1 warning      1 array\n"));
  EXPECT_THAT(text, HasSubstr("  files     1 problem      3 references, 2 not checked (remote URL "
                              "without --rewrite)\n"));
  EXPECT_THAT(text, HasSubstr("  against   not run\n"));
  EXPECT_THAT(text, HasSubstr("Warnings (first 1 of 1):\n  xarray: tas/.zattrs"));
  EXPECT_THAT(text, HasSubstr("Problems (first 2 of 2):\n  keys: tas/9.0"));
  EXPECT_THAT(text, ::testing::EndsWith("FAILED: 2 problems (keys 1, files 1)\n"));

  Report ok(20);
  CaseLog doc = ok.NewCase(Check::kDocument, "");
  doc.Examined();
  ok.Add(std::move(doc));
  std::ostringstream ok_out;
  WriteTextReport(ok, 20, ok_out);
  EXPECT_THAT(ok_out.str(), ::testing::EndsWith("\nOK\n"));
}

TEST(ReportTest, JsonCarriesCountsAndProblems) {
  std::ostringstream out;
  WriteJsonReport(Sample(), 1, out);
  Result<json::Value> doc = json::Value::Parse(out.str());
  ASSERT_TRUE(doc.ok()) << out.str();
  EXPECT_FALSE(doc->Find("passed")->as_bool());
  EXPECT_EQ(doc->Find("failures")->as_int(), 2);
  EXPECT_EQ(doc->Find("warnings")->as_int(), 1);
  ASSERT_EQ(doc->Find("problems")->as_array().size(), 1u);  // max_problems
  const json::Value& p = doc->Find("problems")->as_array()[0];
  EXPECT_EQ(p.Find("check")->as_string(), "keys");
  EXPECT_EQ(p.Find("case")->as_string(), "tas");
  EXPECT_EQ(p.Find("key")->as_string(), "tas/9.0");
  const json::Value* files = doc->Find("checks")->Find("files");
  EXPECT_EQ(files->Find("skipped")->as_int(), 2);
  EXPECT_TRUE(doc->Find("checks")->Find("xarray")->Find("advisory")->as_bool());
  EXPECT_FALSE(doc->Find("checks")->Find("source")->Find("ran")->as_bool());
}

// A small well-formedness check: tags nest, attributes are quoted, and text holds no raw '<'
// or '&' other than entity references.
::testing::AssertionResult WellFormedXml(const std::string& xml) {
  std::vector<std::string> open;
  size_t i = xml.find("?>");
  if (!xml.starts_with("<?xml") || i == std::string::npos) {
    return ::testing::AssertionFailure() << "no XML declaration";
  }
  for (i += 2; i < xml.size(); ++i) {
    if (xml[i] == '&') {
      const size_t semi = xml.find(';', i);
      const std::string entity = xml.substr(i, semi - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&apos;") {
        return ::testing::AssertionFailure() << "bad entity at " << i;
      }
      continue;
    }
    if (xml[i] != '<') continue;
    const size_t end = xml.find('>', i);
    std::string tag = xml.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return ::testing::AssertionFailure() << "< in tag";
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) {
      return ::testing::AssertionFailure() << "unbalanced quotes in <" << tag << ">";
    }
    const bool closing = tag.starts_with("/"), empty = tag.ends_with("/");
    const std::string name = tag.substr(closing, tag.find_first_of(" />", closing) - closing);
    if (closing) {
      if (open.empty() || open.back() != name) {
        return ::testing::AssertionFailure() << "</" << name << "> closes nothing open";
      }
      open.pop_back();
    } else if (!empty) {
      open.push_back(name);
    }
    i = end;
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> not closed";
  return ::testing::AssertionSuccess();
}

TEST(ReportTest, JunitIsWellFormedAndEscaped) {
  const std::string xml = JunitReport(Sample());
  EXPECT_TRUE(WellFormedXml(xml)) << xml;
  EXPECT_THAT(xml, HasSubstr("<testsuites name=\"kerchunk verify refs.json\" tests=\"5\" "
                             "failures=\"2\">"));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"keys\" tests=\"1\" failures=\"1\""));
  EXPECT_THAT(xml, HasSubstr("message=\"1 problem: tas/9.0: outside &lt;the&gt; grid &amp; "
                             "&quot;more&quot;\""));
  EXPECT_THAT(xml, HasSubstr("<testcase classname=\"kerchunk.verify.decode\" name=\"lz\">\n"
                             "      <skipped message=\"4 not checked: codecs not supported: "
                             "lz4\"/>"));
  EXPECT_THAT(xml, HasSubstr("<system-out>warnings:\ntas/.zattrs: dimension &quot;x&quot;"));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"xarray\" tests=\"1\" failures=\"0\""));
  EXPECT_THAT(xml, HasSubstr("name=\"(root)\""));  // the document case of path ""
}

TEST(ReportTest, JunitReplacesCharactersXmlCannotHold) {
  Report r(5);
  CaseLog log = r.NewCase(Check::kKeys, std::string("a\x01") + "b");
  log.Fail("k", std::string("bell\x07 and tab\t"));
  r.Add(std::move(log));
  const std::string xml = JunitReport(r);
  EXPECT_TRUE(WellFormedXml(xml)) << xml;
  EXPECT_THAT(xml, HasSubstr("name=\"a?b\""));
  EXPECT_THAT(xml, HasSubstr("bell? and tab\t"));
  EXPECT_EQ(xml.find('\x07'), std::string::npos);
}

}  // namespace
}  // namespace kerchunk::verify
