import com.sun.source.util.JavacTask;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Parses Java sources with javac's own parser and reports syntax errors only:
 * compiling jsii's generated Java needs the jsii runtime and cdktf jars, which
 * come from Maven. Run as `java JavaParse.java <file>...`; prints the number
 * of files parsed, exits 1 on any error.
 */
public class JavaParse {
    public static void main(String[] args) throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, null, null);
        List<File> sources = new ArrayList<>();
        for (String arg : args) sources.add(new File(arg));
        JavacTask task = (JavacTask) compiler.getTask(null, files, diagnostics, List.of("-proc:none"), null, files.getJavaFileObjectsFromFiles(sources));
        int units = 0;
        for (Object unit : task.parse()) units++;
        int errors = 0;
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                errors++;
                System.err.println(d);
            }
        }
        System.out.println("parsed " + units + " files, " + errors + " errors");
        System.exit(errors == 0 ? 0 : 1);
    }
}
