package io.agentoutcomes.app.docker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The files of docker/, read as Docker, Compose, Prometheus and Grafana read them, for the tests. */
final class DockerFiles {
    static final Path DOCKER = Path.of("..", "docker");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private DockerFiles() {
    }

    static JsonNode yaml(String file) {
        try {
            return YAML.readTree(DOCKER.resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String file) {
        try {
            return JSON.readTree(DOCKER.resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A compose service's environment, as a map whichever of the two forms it is written in. */
    static Map<String, String> environment(JsonNode service) {
        Map<String, String> environment = new LinkedHashMap<>();
        JsonNode env = service.path("environment");
        if (env.isArray()) {
            env.forEach(entry -> {
                String[] parts = entry.asText().split("=", 2);
                environment.put(parts[0], parts.length > 1 ? parts[1] : "");
            });
        } else {
            env.fields().forEachRemaining(entry -> environment.put(entry.getKey(), entry.getValue().asText()));
        }
        return environment;
    }

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?}");

    /**
     * A compose value with its variables substituted from {@code variables} as Compose does: {@code ${NAME}},
     * {@code ${NAME:-default}}, and {@code ${NAME:?message}}, which refuses (here: throws) with the message when the
     * variable is unset or empty.
     */
    static String interpolate(String value, Map<String, String> variables) {
        Matcher variable = VARIABLE.matcher(value);
        StringBuilder result = new StringBuilder();
        while (variable.find()) {
            String given = variables.get(variable.group(1));
            String separator = variable.group(2);
            boolean missing = given == null || given.isEmpty() && separator != null && separator.startsWith(":");
            String replacement;
            if (!missing) {
                replacement = given;
            } else if (separator != null && separator.endsWith("?")) {
                throw new IllegalArgumentException("required variable " + variable.group(1) + " is missing a value: "
                        + variable.group(3));
            } else {
                replacement = separator == null ? "" : variable.group(3);
            }
            variable.appendReplacement(result, Matcher.quoteReplacement(replacement));
        }
        variable.appendTail(result);
        return result.toString();
    }

    /** The Dockerfile's instructions of the final stage, each as its keyword and the rest of its (joined) line. */
    static Dockerfile dockerfile() {
        try {
            String text = Files.readString(DOCKER.resolve("Dockerfile")).replaceAll("\\\\\\n", " ");
            List<String[]> instructions = new ArrayList<>();
            for (String line : text.split("\n")) {
                String trimmed = line.trim();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                String[] parts = trimmed.split("\\s+", 2);
                if (parts[0].equalsIgnoreCase("FROM")) {
                    instructions.clear(); // only the final stage is the image
                }
                instructions.add(new String[] {parts[0].toUpperCase(), parts.length > 1 ? parts[1] : ""});
            }
            return new Dockerfile(instructions);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record Dockerfile(List<String[]> instructions) {
        private static final Pattern ENV_PAIR = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|\\S*)");

        /** The exec form (JSON array) of ENTRYPOINT or CMD. */
        List<String> execForm(String keyword) {
            String value = last(keyword);
            try {
                List<String> words = new ArrayList<>();
                JSON.readTree(value).forEach(word -> words.add(word.asText()));
                return words;
            } catch (IOException e) {
                throw new AssertionError(keyword + " is not in exec form (a JSON array): " + value, e);
            }
        }

        Map<String, String> env() {
            Map<String, String> env = new LinkedHashMap<>();
            instructions.stream().filter(i -> i[0].equals("ENV")).forEach(i -> {
                Matcher pair = ENV_PAIR.matcher(i[1]);
                while (pair.find()) {
                    env.put(pair.group(1), pair.group(2).replaceAll("^\"|\"$", ""));
                }
            });
            return env;
        }

        /** The command of HEALTHCHECK, in exec form (the JSON array after CMD), its options before it. */
        List<String> healthcheck() {
            String value = last("HEALTHCHECK");
            int cmd = value.indexOf("CMD ");
            if (cmd < 0) {
                throw new AssertionError("HEALTHCHECK has no CMD: " + value);
            }
            try {
                List<String> words = new ArrayList<>();
                JSON.readTree(value.substring(cmd + 4).trim()).forEach(word -> words.add(word.asText()));
                return words;
            } catch (IOException e) {
                throw new AssertionError("HEALTHCHECK's CMD is not in exec form (a JSON array): " + value, e);
            }
        }

        /** The repository file a path in the image is a copy of. */
        String sourceOf(String pathInImage) {
            return copies().entrySet().stream().filter(copy -> copy.getValue().equals(pathInImage)).map(Map.Entry::getKey)
                    .findFirst().orElseThrow(() -> new AssertionError(pathInImage + " is copied from nowhere"));
        }

        /** COPY sources from the build context (not from another stage), by destination. */
        Map<String, String> contextCopies() {
            Map<String, String> copies = new LinkedHashMap<>();
            instructions.stream().filter(i -> i[0].equals("COPY") && !i[1].contains("--from=")).forEach(i -> {
                List<String> words = new ArrayList<>(List.of(i[1].split("\\s+")));
                words.removeIf(word -> word.startsWith("--"));
                String destination = words.remove(words.size() - 1);
                words.forEach(source -> copies.put(source, destination));
            });
            return copies;
        }

        /** COPY destinations by source (the last word is the destination). */
        Map<String, String> copies() {
            Map<String, String> copies = new LinkedHashMap<>();
            instructions.stream().filter(i -> i[0].equals("COPY")).forEach(i -> {
                List<String> words = new ArrayList<>(List.of(i[1].split("\\s+")));
                words.removeIf(word -> word.startsWith("--"));
                String destination = words.remove(words.size() - 1);
                words.forEach(source -> copies.put(source, destination));
            });
            return copies;
        }

        String last(String keyword) {
            return instructions.stream().filter(i -> i[0].equals(keyword)).reduce((a, b) -> b)
                    .map(i -> i[1]).orElseThrow(() -> new AssertionError("the Dockerfile has no " + keyword));
        }
    }
}
