package io.agentoutcomes.app.http.pages;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** What the pages share: one stylesheet, the page head, escaping text into HTML and into a link's path. */
final class Html {
    /** The pages' one stylesheet: the dashboard's cards and charts, the timeline's lanes and steps. */
    static final String STYLE = """
            body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1a1a1a;max-width:75rem}
            h1{font-size:1.4rem;margin-bottom:.2rem} h2{font-size:1.05rem;margin:1.5rem 0 .4rem} .muted{color:#666} a{color:#1565c0}
            .grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(34rem,1fr));gap:1.2rem}
            .card{border:1px solid #e0e0e0;border-radius:.4rem;padding:.8rem 1rem}
            svg text{font-size:11px;fill:#555} code{background:#f4f4f4;padding:0 .2rem;border-radius:.2rem}
            .legend span{margin-right:1rem;font-size:.85rem}
            .swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:.15rem;vertical-align:middle;margin-right:.3rem}
            table{border-collapse:collapse;margin-top:.5rem} .card table{width:100%}
            td,th{border-bottom:1px solid #eee;padding:.25rem .6rem .25rem 0;text-align:left;font-size:.9rem}
            td.n{text-align:right;font-variant-numeric:tabular-nums}
            .status{display:inline-block;padding:.05rem .45rem;border-radius:.3rem;color:#fff;font-size:.8rem}
            .timeline{margin:1.2rem 0 .4rem}
            .lane{display:flex;align-items:center;height:1.6rem;border-bottom:1px solid #f0f0f0}
            .lane-label{width:9rem;flex:none;font-size:.8rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;padding-right:.5rem}
            .track,.axis-track{position:relative;flex:1;height:100%}
            .segment{position:absolute;top:.25rem;bottom:.25rem;min-width:4px;border-radius:.15rem}
            .axis{display:flex;height:1.4rem} .axis-track{border-top:1px solid #999}
            .tick{position:absolute;top:0;font-size:.75rem;color:#555;transform:translateX(-50%);white-space:nowrap;padding-top:.15rem}
            .tick:first-child{transform:none} .tick:last-child{transform:translateX(-100%)}
            ol.steps{padding-left:1.2rem} ol.steps li{margin:.5rem 0}
            details{border:1px solid #ddd;border-radius:.3rem;padding:.4rem .7rem} summary{cursor:pointer;font-weight:600}
            .progress{display:inline-block;width:5rem;height:.6rem;background:#eee;border-radius:.3rem;margin-right:.4rem;vertical-align:middle;overflow:hidden}
            .progress span{display:block;height:100%}
            nav.pages{margin:.2rem 0 1rem;font-size:.9rem} nav.pages a{margin-right:1rem}
            tr.stopping td{background:#fdecea} tr.stopping td:first-child{border-left:3px solid #c62828}
            """;

    private Html() {
    }

    /** The links between the pages: the dashboard, the jobs list, the analytics API and the metrics. */
    static final String NAV = "<nav class=\"pages\"><a href=\"/\">Dashboard</a><a href=\"/ui/jobs\">Jobs</a>"
            + "<a href=\"/analytics?window=1m&amp;by=model\">/analytics</a><a href=\"/metrics\">/metrics</a></nav>";

    /** What a chart without data says, while other charts have some. */
    static final String EMPTY = "<p class=\"muted empty\">No data yet.</p>";

    /** The start of a page: its title and the stylesheet, up to the open body. */
    static StringBuilder head(String title) {
        return new StringBuilder(4096).append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(escape(title)).append("</title><style>").append(STYLE).append("</style></head><body>");
    }

    /** Text as HTML, safe in an element and in a quoted attribute. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** Text as one segment of a link's path. */
    static String urlPart(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
