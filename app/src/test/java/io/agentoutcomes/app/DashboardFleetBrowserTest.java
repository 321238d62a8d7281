package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.fleet.FleetSession;
import io.agentoutcomes.app.fleet.FleetSettings;
import io.agentoutcomes.client.testing.TestBroker;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard after a short {@code fleet} run, in headless Chromium (as {@link TimelineBrowserTest}): every chart has
 * drawn marks, and the numbers it shows are those of {@code /analytics}.
 */
class DashboardFleetBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void afterAFleetRunEveryChartIsDrawnAndShowsWhatAnalyticsSays() throws Exception {
        try (AgentOutcomesService service = AgentOutcomesService.start(TestServiceConfig.on(kafka, dataDir, 1,
                     "analytics.flush.interval.ms", "200", "backoff.cap.ms", "3000", "http.dashboard.provider.sample.ms", "3000"))) {
            DemoCommand.awaitRunning(service, Duration.ofSeconds(60));
            Map<String, Object> client = new HashMap<>(DemoCommand.clientSettings(service, ""));
            FleetSession.run(new FleetSettings(client, 10, Duration.ofSeconds(8), 11, 0.5, Duration.ofSeconds(60)),
                    new PrintWriter(new StringWriter()));
            JsonNode byAgent = stableAnalytics(service.httpUrl() + "/analytics?window=total&by=agent");
            JsonNode byModel = stableAnalytics(service.httpUrl() + "/analytics?window=1m&by=model");

            ChromeDriver browser = new ChromeDriver(new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File("/usr/bin/chromedriver")).build(), options());
            try {
                browser.get(service.httpUrl() + "/");
                int points = 0;
                for (JsonNode series : byModel.path("series")) {
                    points += series.path("points").size();
                }
                for (String chart : List.of("cost-chart", "tokens-chart")) {
                    List<WebElement> dots = browser.findElements(By.cssSelector("#" + chart + " circle.point"));
                    assertThat(dots).as(chart).hasSize(points);
                    assertThat(dots).allSatisfy(d -> assertThat(d.getSize().getWidth()).isPositive());
                    // one line per run of consecutive minutes of each model: a minute without a window breaks it
                    assertThat(browser.findElements(By.cssSelector("#" + chart + " polyline.series"))).as(chart)
                            .hasSize(runs(byModel));
                    List<String> ticks = browser.findElements(By.cssSelector("#" + chart + " text.y-label")).stream()
                            .map(WebElement::getText).toList();
                    assertThat(ticks).as(chart + " y labels").hasSizeBetween(2, 6).doesNotHaveDuplicates();
                }
                assertThat(browser.findElement(By.cssSelector("#cost-chart text.y-label")).getText()).isEqualTo("$0");
                List<WebElement> tokenTicks = browser.findElements(By.cssSelector("#tokens-chart text.y-label"));
                assertThat(tokenTicks.get(tokenTicks.size() - 1).getText()).endsWith(" tok");

                int agents = byAgent.path("series").size();
                assertThat(agents).isGreaterThanOrEqualTo(5);
                for (String chart : List.of("retry-chart", "dead-letter-chart")) {
                    List<WebElement> bars = browser.findElements(By.cssSelector("#" + chart + " rect.bar"));
                    assertThat(bars).as(chart).hasSize(agents);
                    assertThat(bars).allSatisfy(b -> assertThat(b.getSize().getWidth()).isPositive());
                }
                for (JsonNode series : byAgent.path("series")) {
                    String agent = series.path("name").asText();
                    JsonNode total = series.path("points").get(0);
                    long attempts = total.path("attempts").asLong();
                    long retries = total.path("retries").asLong();
                    long dead = 0;
                    for (JsonNode n : total.path("deadLetters")) {
                        dead += n.asLong();
                    }
                    assertThat(label(browser, "retry-chart", agent)).as(agent)
                            .isEqualTo(String.format(Locale.ROOT, "%.0f %%", attempts == 0 ? 0 : 100.0 * retries / attempts));
                    assertThat(label(browser, "dead-letter-chart", agent)).as(agent)
                            .isEqualTo(String.format(Locale.ROOT, "%,d", dead));
                }
                // the five most expensive agents, in order, with their total cost as /analytics has it
                List<String> expected = new ArrayList<>();
                StreamSupport.stream(byAgent.path("series").spliterator(), false)
                        .sorted(Comparator.comparing((JsonNode s) -> s.path("points").get(0).path("costTotal")
                                .decimalValue()).reversed())
                        .limit(5).forEach(s -> expected.add(s.path("name").asText() + " " + dollars(
                                s.path("points").get(0).path("costTotal").decimalValue().doubleValue())));
                assertThat(browser.findElements(By.cssSelector("#most-expensive tr")).stream().skip(1)
                        .map(WebElement::getText).toList()).isEqualTo(expected);
                assertThat(browser.findElements(By.cssSelector("#recent-jobs a"))).isNotEmpty();
                Path screenshots = Path.of("target", "screenshots");
                Files.createDirectories(screenshots);
                Files.write(screenshots.resolve("dashboard-fleet.png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

                // Issue 32: each provider scope's sparkline ends at what /providers says, once a sample follows the fleet
                JsonNode providers = stableAnalytics(service.httpUrl() + "/providers").path("providers");
                assertThat(providers).isNotEmpty();
                assertThat(StreamSupport.stream(providers.spliterator(), false).mapToLong(p -> p.path("paced").asLong()).sum())
                        .as("the fleet's rate limits held retries and the gate paced them").isPositive();
                String[] mismatch = {""};
                waitForCondition(() -> {
                    browser.get(service.httpUrl() + "/");
                    mismatch[0] = sparklinesDisagree(browser, providers);
                    return mismatch[0].isEmpty();
                }, 30_000, 500, () -> "the sparklines never showed /providers: " + mismatch[0]);
                for (JsonNode scope : providers) {
                    WebElement spark = sparkline(browser, scopeName(scope));
                    int samples = spark.getAttribute("data-held").split(",").length;
                    assertThat(samples).as("samples of " + scopeName(scope)).isGreaterThan(1);
                    // every sample has its point: on a line, or a dot where it stands alone
                    int drawn = 0;
                    for (WebElement line : spark.findElements(By.cssSelector("polyline.held"))) {
                        drawn += line.getAttribute("points").trim().split(" ").length;
                    }
                    drawn += spark.findElements(By.cssSelector("circle.held")).size();
                    assertThat(drawn).isEqualTo(samples);
                    assertThat(spark.getSize().getWidth()).isEqualTo(150);
                    WebElement cell = spark.findElement(By.xpath("./.."));
                    assertThat(cell.findElement(By.className("held-now")).getText())
                            .isEqualTo(String.format(Locale.ROOT, "%,d", scope.path("held").asLong()));
                    assertThat(cell.findElement(By.className("paced-all")).getText())
                            .isEqualTo(String.format(Locale.ROOT, "%,d", scope.path("paced").asLong()));
                }
                WebElement card = browser.findElement(By.id("providers"));
                ((JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView()", card);
                Files.write(screenshots.resolve("dashboard-providers.png"), card.getScreenshotAs(OutputType.BYTES));
            } finally {
                browser.quit();
            }
        }
    }

    private static String scopeName(JsonNode scope) {
        return scope.path("provider").asText() + (scope.path("model").isNull() ? "" : " / " + scope.path("model").asText());
    }

    private static WebElement sparkline(ChromeDriver browser, String scope) {
        return browser.findElements(By.cssSelector("svg.sparkline")).stream()
                .filter(svg -> scope.equals(svg.getAttribute("data-scope"))).findFirst().orElseThrow();
    }

    /**
     * What differs between the sparklines and {@code /providers}: a scope's last held value, and its paced count before
     * the line plus the paced values drawn, against the scope's held and paced; the text beside it too. Empty if nothing.
     */
    private static String sparklinesDisagree(ChromeDriver browser, JsonNode providers) {
        StringBuilder differs = new StringBuilder();
        for (JsonNode scope : providers) {
            String name = scopeName(scope);
            List<WebElement> found = browser.findElements(By.cssSelector("svg.sparkline")).stream()
                    .filter(svg -> name.equals(svg.getAttribute("data-scope"))).toList();
            if (found.isEmpty()) {
                differs.append(name).append(": no sparkline; ");
                continue;
            }
            String[] held = found.get(0).getAttribute("data-held").split(",");
            long paced = Long.parseLong(found.get(0).getAttribute("data-paced-before"));
            for (String value : found.get(0).getAttribute("data-paced").split(",")) {
                paced += value.equals("-") ? 0 : Long.parseLong(value);
            }
            if (Long.parseLong(held[held.length - 1]) != scope.path("held").asLong() || paced != scope.path("paced").asLong()) {
                differs.append(name).append(": held ").append(held[held.length - 1]).append(", paced ").append(paced)
                        .append(" drawn; ").append(scope).append("; ");
            }
        }
        return differs.toString();
    }

    private static String dollars(double usd) {
        return usd >= 1 ? String.format(Locale.ROOT, "$%,.2f", usd)
                : "$" + new BigDecimal(usd).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static String label(ChromeDriver browser, String chart, String agent) {
        return browser.findElement(By.cssSelector("#" + chart + " text.value[data-agent='" + agent + "']")).getText();
    }

    /** The analytics answer once two reads a second apart agree (the fleet has settled; partials are flushed). */
    private static JsonNode stableAnalytics(String url) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String[] last = {null};
        waitForCondition(() -> {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 200 && answer.body().equals(last[0])) {
                return true;
            }
            last[0] = answer.statusCode() == 200 ? answer.body() : null;
            return false;
        }, 30_000, 1000, () -> "analytics did not settle: " + url);
        return JSON.readTree(last[0]);
    }

    private static ChromeOptions options() throws IOException {
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1280,1400", "--user-data-dir=" + Files.createTempDirectory("chromium-profile"));
        return options;
    }

    /** Runs of consecutive 1-minute windows over every series of {@code /analytics?by=model}. */
    private static int runs(JsonNode analytics) {
        int runs = 0;
        for (JsonNode series : analytics.path("series")) {
            long last = Long.MIN_VALUE;
            for (JsonNode point : series.path("points")) {
                long start = Instant.parse(point.path("windowStart").asText()).toEpochMilli();
                if (last == Long.MIN_VALUE || start - last > 60_000) {
                    runs++;
                }
                last = start;
            }
        }
        return runs;
    }
}
