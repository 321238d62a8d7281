package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.testing.TestBroker;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The timeline page of a job with a success, a retryable failure and a permanent failure, in headless Chromium
 * (Debian's chromium and chromium-driver, which ./test.sh installs): steps, colours, legend; a screenshot goes to
 * target/screenshots/.
 */
class TimelineBrowserTest {
    /** A broker of its own for each test: both run a service at the default topic names. */
    @RegisterExtension
    final TestBroker kafka = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void timelineShowsStepsAndColoursByStatus() throws Exception {
        try (AgentOutcomesService service = AgentOutcomesService.start(TestServiceConfig.on(kafka, dataDir, 1))) {
            publish(kafka, service);
            awaitThreeNodes(service);

            ChromeDriver browser = new ChromeDriver(new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File("/usr/bin/chromedriver")).build(), options());
            try {
                browser.get(service.httpUrl() + "/ui/jobs/job-ui");

                List<WebElement> steps = browser.findElements(By.cssSelector("#steps summary"));
                assertThat(steps).extracting(WebElement::getText).containsExactly(
                        "Node n1 · success", "Node n2 · retryable_failure", "Node n3 · permanent_failure");
                List<WebElement> segments = browser.findElements(By.cssSelector("#timeline .segment"));
                assertThat(segments).extracting(s -> s.getAttribute("data-status")).containsExactly("ok", "retryable", "failed");
                assertThat(segments).extracting(s -> s.getCssValue("background-color")).containsExactly(
                        "rgba(46, 125, 50, 1)", "rgba(249, 168, 37, 1)", "rgba(198, 40, 40, 1)");
                assertThat(browser.findElements(By.cssSelector(".legend span"))).extracting(WebElement::getText)
                        .containsExactly("ok", "retryable", "compensatable", "failed");
                // no finish times in these events: an axis of elapsed run time, the segments one after another
                assertThat(browser.findElements(By.cssSelector("#time-axis .tick"))).extracting(WebElement::getText)
                        .containsExactly("0 s", "0.9 s", "1.8 s", "2.6 s", "3.5 s");
                assertThat(segments.get(1).getRect().getX()).isGreaterThanOrEqualTo(
                        segments.get(0).getRect().getX() + segments.get(0).getRect().getWidth() - 1);
                assertThat(browser.findElement(By.id("job-status")).getText()).isEqualTo("failed");

                browser.findElement(By.cssSelector("#steps li[data-node='n3'] summary")).click();
                String detail = browser.findElement(By.cssSelector("#steps li[data-node='n3'] details")).getText();
                assertThat(detail).contains("Result type permanent_failure", "Reason 404 not found", "1500 ms", "span-3", "span-0");

                Path screenshots = Path.of("target", "screenshots");
                Files.createDirectories(screenshots);
                Files.write(screenshots.resolve("timeline.png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

                // The list reads every partition: while Kafka Streams moves a task between the instance's stream
                // threads it answers a 503 page ("reload in a second"), as a browser's reader would, reload.
                waitForCondition(() -> {
                    browser.get(service.httpUrl() + "/ui/jobs");
                    return !browser.findElements(By.cssSelector("#jobs a")).isEmpty();
                }, 30_000, () -> "/ui/jobs never listed a job: " + browser.findElement(By.tagName("body")).getText());
                assertThat(browser.findElement(By.cssSelector("#jobs a")).getText()).isEqualTo("job-ui");
                assertThat(browser.findElement(By.cssSelector("#jobs .status")).getText()).isEqualTo("failed");
            } finally {
                browser.quit();
            }
        }
    }

    @Test
    void dashboardDrawsCostTokensRetriesAndLinksToJobs() throws Exception {
        try (AgentOutcomesService service = AgentOutcomesService.start(ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                     ConfigLoader.BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                     ConfigLoader.TOPIC_PARTITIONS, "1",
                     ConfigLoader.DATA_DIR, dataDir.toString(),
                     ConfigLoader.HTTP_PORT, "0",
                     ConfigLoader.EMBEDDED_REGISTRY_PORT, "0",
                     "analytics.flush.interval.ms", "200")))) {
            publish(kafka, service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            String[] agents = {"summarizer", "reviewer", "planner"};
            String[] models = {"gpt-4o-mini", "claude-haiku"};
            long now = System.currentTimeMillis();
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(Map.of(
                    "bootstrap.servers", kafka.bootstrapServers()), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                for (int i = 0; i < 60; i++) {
                    Object outcome = i % 4 == 0 ? Failure.newBuilder().setError(
                            ErrorInfo.newBuilder().setCode("llm-timeout").build()).build()
                            : Success.newBuilder().build();
                    AgentResult result = AgentResult.newBuilder()
                            .setResultId("r-" + i).setAgentId(agents[i % 3]).setTaskId("task-" + i)
                            .setExecution(ExecutionMetadata.newBuilder().setModel(models[i % 2])
                                    .setProvider(i % 2 == 0 ? "openai" : "anthropic").setDurationMs(100L + 10L * i)
                                    .setUsage(Usage.newBuilder().setInputTokens(100L + i).setOutputTokens(20L).build())
                                    .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal("0.0001")
                                            .multiply(BigDecimal.valueOf(i + 1)).setScale(12)))
                                            .setSource(CostSource.REPORTED).build()).build())
                            .setOutcome(outcome).build();
                    producer.send(new ProducerRecord<>(TopicNames.AGENT_RESULTS, null, now - (60 - i) * 5_000L, result.getTaskId(),
                            result)).get();
                }
            }
            HttpClient http = HttpClient.newHttpClient();
            // every agent result counted, and the job's nodes (under the agent _workflow)
            waitForCondition(() -> {
                String totals = http.send(HttpRequest.newBuilder(URI.create(service.httpUrl()
                        + "/analytics?window=total&by=agent")).build(), HttpResponse.BodyHandlers.ofString()).body();
                return totals.contains("\"attempts\":20") && totals.contains("\"name\":\"_workflow\"");
            }, 60_000, 200, () -> "every result counted and the job's nodes under _workflow");

            ChromeDriver browser = new ChromeDriver(new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File("/usr/bin/chromedriver")).build(), options());
            try {
                browser.get(service.httpUrl() + "/");
                assertThat(browser.findElements(By.cssSelector("#cost-chart polyline.series")))
                        .extracting(e -> e.getAttribute("data-series")).containsExactly("claude-haiku", "gpt-4o-mini");
                assertThat(browser.findElements(By.cssSelector("#tokens-chart polyline.series"))).hasSize(2);
                assertThat(browser.findElements(By.cssSelector("#retry-chart rect.bar")))
                        .extracting(e -> e.getAttribute("data-agent"))
                        .containsExactly("_workflow", "planner", "reviewer", "summarizer");
                assertThat(browser.findElement(By.id("retry-chart")).getText()).contains("summarizer");
                assertThat(browser.findElement(By.id("most-expensive")).getText()).contains("$");
                assertThat(browser.findElement(By.id("slowest")).getText()).contains(" ms");
                assertThat(browser.findElement(By.cssSelector("#recent-jobs a")).getText()).isEqualTo("job-ui");
                Path screenshots = Path.of("target", "screenshots");
                Files.createDirectories(screenshots);
                Files.write(screenshots.resolve("dashboard.png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
            } finally {
                browser.quit();
            }
        }
    }

    private static ChromeOptions options() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1280,1400", "--user-data-dir=" + tempDir());
        return options;
    }

    private static String tempDir() {
        try {
            return Files.createTempDirectory("chromium-profile").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void publish(TestBroker kafka, AgentOutcomesService service) throws Exception {
        Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
        try (KafkaProducer<String, NodeFinished> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers()), new StringSerializer(),
                AvroSerde.specific(NodeFinished.class).configured(serde, false).serializer())) {
            for (NodeFinished event : List.of(
                    NodeFinished.newBuilder().setJobId("job-ui").setNodeId("n1").setStepIndex(1).setAttempt(0)
                            .setResultType(StepResultType.SUCCESS).setDurationMs(800L).setTraceSpanId("span-1")
                            .setParentSpanId("span-0").build(),
                    NodeFinished.newBuilder().setJobId("job-ui").setNodeId("n2").setStepIndex(2).setAttempt(0)
                            .setResultType(StepResultType.RETRYABLE_FAILURE).setReason("timeout").setDurationMs(1200L)
                            .setTraceSpanId("span-2").setParentSpanId("span-0").build(),
                    NodeFinished.newBuilder().setJobId("job-ui").setNodeId("n3").setStepIndex(3).setAttempt(0)
                            .setResultType(StepResultType.PERMANENT_FAILURE).setReason("404 not found").setDurationMs(1500L)
                            .setTraceSpanId("span-3").setParentSpanId("span-0").build())) {
                producer.send(new ProducerRecord<>(TopicNames.NODE_FINISHED, "job-ui", event)).get();
            }
        }
    }

    private static void awaitThreeNodes(AgentOutcomesService service) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        waitForCondition(() -> {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(service.httpUrl() + "/jobs/job-ui"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            return answer.statusCode() == 200 && answer.body().contains("\"nodeId\":\"n3\"");
        }, 60_000, "job-ui never had its three nodes");
    }
}
