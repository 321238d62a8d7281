package io.agentoutcomes.app.docker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** docs/managed-kafka.md read as the tests read it: its sections, their code blocks and its checked tables. */
final class ManagedKafkaPage {
    static final Path FILE = Path.of("..", "docs", "managed-kafka.md");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern BLOCK = Pattern.compile("(?ms)^```(\\w*)\\n(.*?)^```$");

    /** A fenced code block: its language and its text. */
    record Block(String language, String text) {
    }

    final String text;

    ManagedKafkaPage() {
        try {
            text = Files.readString(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text of the section under {@code ## <heading>}, up to the next {@code ## }. */
    String section(String heading) {
        int start = text.indexOf("\n## " + heading + "\n");
        if (start < 0) {
            throw new AssertionError("docs/managed-kafka.md has no section '" + heading + "'");
        }
        int end = text.indexOf("\n## ", start + 4);
        return text.substring(start, end < 0 ? text.length() : end);
    }

    static List<Block> blocks(String section, String language) {
        List<Block> blocks = new ArrayList<>();
        Matcher block = BLOCK.matcher(section);
        while (block.find()) {
            if (block.group(1).equals(language)) {
                blocks.add(new Block(block.group(1), block.group(2)));
            }
        }
        return blocks;
    }

    /** A properties block as java.util.Properties reads it (the service's --config file), values trimmed. */
    static Map<String, String> properties(Block block) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(block.text()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name).trim()));
        return settings;
    }

    /** An env block as docker run --env-file reads it: NAME=value per line, the value taken literally. */
    static Map<String, String> envFile(Block block) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : block.text().split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] parts = line.split("=", 2);
                env.put(parts[0], parts[1]);
            }
        }
        return env;
    }

    /** Every YAML document of a block (a block may hold several, separated by ---). */
    static List<JsonNode> yaml(Block block) {
        try {
            return YAML.readerFor(JsonNode.class).<JsonNode>readValues(block.text()).readAll();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The rows of the table after {@code <!-- managed-kafka <name>: ...-->}, each a list of cells, backticks removed. */
    List<List<String>> table(String name) {
        int marker = text.indexOf("<!-- managed-kafka " + name + ":");
        if (marker < 0) {
            throw new AssertionError("docs/managed-kafka.md has no table marked '" + name + "'");
        }
        List<List<String>> rows = new ArrayList<>();
        String[] lines = text.substring(text.indexOf('\n', marker) + 1).split("\n");
        for (int i = 2; i < lines.length && lines[i].startsWith("|"); i++) {
            String line = lines[i].substring(1, lines[i].length() - 1);
            rows.add(Arrays.stream(line.split("\\|", -1)).map(cell -> cell.trim().replace("`", "")).toList());
        }
        return rows;
    }
}
