package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * No two classes of the service depend on each other, directly or round a loop. The import rules
 * (build/import-control.xml) keep packages pointing one way; this keeps the files inside a package so too, where no
 * import line shows a dependency. A class counts with the classes nested in it (one file, one node); the dependencies
 * are those ArchUnit reads from the compiled main classes of the avro, topology, client and app modules (a use of
 * another class's compile-time constant is inlined by the compiler, so not seen). Every group of classes that reach
 * each other (a strongly connected component of more than one class) is a failure, named class by class.
 */
class ClassCyclesTest {
    @Test
    void noClassOfTheServiceDependsOnItselfThroughOthers() {
        JavaClasses service = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.agentoutcomes.avro", "io.agentoutcomes.topology", "io.agentoutcomes.client",
                        "io.agentoutcomes.app");

        Map<String, Set<String>> graph = fileGraph(service);

        assertThat(graph).as("classes read").hasSizeGreaterThan(350)
                .containsKeys("io.agentoutcomes.app.AgentOutcomesService", "io.agentoutcomes.avro.serde.RecordCoders");
        assertThat(cycles(graph)).isEmpty();
    }

    @Test
    void twoClassesThatUseEachOtherAreACycleAndWhatUsesThemIsNot() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.agentoutcomes.app.cyclefixture");

        assertThat(cycles(fileGraph(fixture))).containsExactly(
                List.of("io.agentoutcomes.app.cyclefixture.Ping", "io.agentoutcomes.app.cyclefixture.Pong"));
    }

    /** Each top-level class of {@code classes} and the top-level classes among {@code classes} it depends on. */
    private static Map<String, Set<String>> fileGraph(JavaClasses classes) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (JavaClass origin : classes) {
            Set<String> targets = graph.computeIfAbsent(topLevel(origin), c -> new TreeSet<>());
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                if (classes.contain(target.getName())) {
                    targets.add(topLevel(target));
                }
            }
            targets.remove(topLevel(origin));
        }
        return graph;
    }

    private static String topLevel(JavaClass javaClass) {
        String name = javaClass.getName();
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    /** The strongly connected components of more than one node, each sorted (Tarjan's algorithm). */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        return new Components(graph).cycles;
    }

    private static final class Components {
        private final Map<String, Set<String>> graph;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> lowest = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<List<String>> cycles = new ArrayList<>();

        Components(Map<String, Set<String>> graph) {
            this.graph = graph;
            graph.keySet().forEach(node -> {
                if (!index.containsKey(node)) {
                    visit(node);
                }
            });
        }

        private void visit(String node) {
            index.put(node, index.size());
            lowest.put(node, index.get(node));
            stack.push(node);
            onStack.add(node);
            for (String next : graph.getOrDefault(node, Set.of())) {
                if (!index.containsKey(next)) {
                    visit(next);
                    lowest.put(node, Math.min(lowest.get(node), lowest.get(next)));
                } else if (onStack.contains(next)) {
                    lowest.put(node, Math.min(lowest.get(node), index.get(next)));
                }
            }
            if (lowest.get(node).equals(index.get(node))) {
                List<String> component = new ArrayList<>();
                String member;
                do {
                    member = stack.pop();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(node));
                if (component.size() > 1) {
                    component.sort(null);
                    cycles.add(component);
                }
            }
        }
    }
}
