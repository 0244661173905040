// The report for CI systems: JUnit XML, which GitLab, Jenkins and GitHub test reporters show
// as one suite per check with one test case per array.
#include <fmt/format.h>

#include "kerchunk/util/xml.h"
#include "kerchunk/verify/report.h"
#include "verify/report_common.h"

namespace kerchunk::verify {
namespace {

void AppendMessages(std::string& out, const CaseLog& log) {
  for (const Finding& f : log.findings()) {
    AppendXmlEscaped(out, f.message);
    out += '\n';
  }
  if (log.failures() > log.findings().size()) {
    out +=
        fmt::format("... and {} more\n", internal::Grouped(log.failures() - log.findings().size()));
  }
}

void AppendCase(std::string& out, const CaseLog& log, bool advisory) {
  const std::string suite(CheckName(log.check()));
  const std::string name = log.name().empty() ? "(root)" : log.name();
  out += fmt::format("    <testcase classname=\"kerchunk.verify.{}\" name=\"{}\">\n", suite,
                     XmlEscaped(name));
  if (log.failures() > 0 && advisory) {
    out += "      <system-out>warnings:\n";
    AppendMessages(out, log);
    out += "</system-out>\n";
  } else if (log.failures() > 0) {
    out += fmt::format("      <failure type=\"{}\" message=\"{}\">", suite,
                       XmlEscaped(internal::Plural(log.failures(), "problem") + ": " +
                                  (log.findings().empty() ? "" : log.findings()[0].message)));
    AppendMessages(out, log);
    out += "</failure>\n";
  } else if (log.examined() == 0 && log.skipped() > 0) {
    out +=
        fmt::format("      <skipped message=\"{}\"/>\n",
                    XmlEscaped(fmt::format("{} not checked: {}", internal::Grouped(log.skipped()),
                                           log.skip_reason())));
  }
  if (log.skipped() > 0 && (log.examined() > 0 || log.failures() > 0)) {
    out += fmt::format("      <system-out>{}</system-out>\n",
                       XmlEscaped(fmt::format(
                           "{} of {} not checked: {}", internal::Grouped(log.skipped()),
                           internal::Grouped(log.skipped() + log.examined()), log.skip_reason())));
  }
  out += "    </testcase>\n";
}

}  // namespace

std::string JunitReport(const Report& report) {
  std::vector<const CaseLog*> cases = report.Cases();
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  size_t failed_cases = 0;
  for (const CaseLog* c : cases) failed_cases += c->failures() > 0 && !report.advisory(c->check());
  out += fmt::format("<testsuites name=\"kerchunk verify {}\" tests=\"{}\" failures=\"{}\">\n",
                     XmlEscaped(report.facts().path), cases.size(), failed_cases);
  for (size_t i = 0; i < kCheckCount; ++i) {
    const Check check = static_cast<Check>(i);
    if (!report.ran(check)) continue;
    size_t tests = 0, failed = 0, skipped = 0;
    for (const CaseLog* c : cases) {
      if (c->check() != check) continue;
      ++tests;
      failed += c->failures() > 0 && !report.advisory(check);
      skipped += c->failures() == 0 && c->examined() == 0 && c->skipped() > 0;
    }
    out += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
        CheckName(check), tests, failed, skipped);
    for (const CaseLog* c : cases) {
      if (c->check() == check) AppendCase(out, *c, report.advisory(check));
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace kerchunk::verify
