// The page's scripts: one ES module, loaded by templates/base.html with <script type="module">, that
// imports every behaviour of the page. No build step: the browser follows the imports. Each module
// imports what it uses from the others (there are no window globals between them), so the order that
// matters is the imports' (a module's imports are evaluated before it); this list keeps the rest in a
// fixed order. Module scripts are deferred: they run once the document is parsed, before
// DOMContentLoaded. The vendored htmx stays a classic script: its global `htmx` is used in event handlers only.
import "./app.js";
import "./assistant_follow.js";
import "./assistant_shell.js";
import "./assistant_drawer.js";
import "./assistant_limit.js";
import "./assistant_buttons.js";
import "./assistant_picker.js";
import "./assistant_compose.js";
import "./assistant_history.js";
import "./assistant_tools.js";
import "./assistant_mentions.js";
import "./assistant_stream.js";
import "./plan_card.js";
import "./page_context.js";
import "./timeline.js";
import "./task_filters.js";
import "./risk_chart.js";
