<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>About</name>
    <message>
        <source>The full licence texts: {path}.</source>
        <translation>完整的许可证文本：{path}。</translation>
    </message>
    <message>
        <source>The packaged app carries the full licence texts in THIRD_PARTY_LICENSES.md.</source>
        <translation>打包的应用在 THIRD_PARTY_LICENSES.md 中附有完整的许可证文本。</translation>
    </message>
    <message>
        <source>An offline editor and checker for AI-agent evaluation datasets.</source>
        <translation>离线编辑和检查 AI 智能体评测数据集的工具。</translation>
    </message>
    <message>
        <source>{app} is licensed under the {licence} licence.</source>
        <translation>{app} 采用 {licence} 许可证授权。</translation>
    </message>
    <message>
        <source>Third-party software</source>
        <translation>第三方软件</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Qt and the LGPL</source>
        <translation>Qt 与 LGPL</translation>
    </message>
    <message>
        <source>About {app}</source>
        <translation>关于 {app}</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>No demo</source>
        <translation>没有示例</translation>
    </message>
    <message>
        <source>The bundled sample dataset is missing from this installation.</source>
        <translation>此安装中缺少自带的示例数据集。</translation>
    </message>
    <message>
        <source>Cannot open the demo</source>
        <translation>无法打开示例</translation>
    </message>
    <message>
        <source>{name} (demo)</source>
        <translation>{name}（示例）</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>{severity}: {text}</source>
        <translation>{severity}：{text}</translation>
    </message>
    <message>
        <source>Check &amp;against:</source>
        <translation>检查目标(&amp;A)：</translation>
    </message>
    <message>
        <source>Which upload target the file is checked against: its headers, limits and rules</source>
        <translation>文件按哪个上传目标检查：决定表头、限制和规则</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Preview &amp;Upload…</source>
        <translation>上传预览(&amp;U)…</translation>
    </message>
    <message>
        <source>What the target will receive from this file, case by case</source>
        <translation>目标将从此文件收到的内容，逐个用例显示</translation>
    </message>
    <message>
        <source>Dataset shape</source>
        <translation>数据集形态</translation>
    </message>
    <message>
        <source>How the target will read the file, and the problems that change it</source>
        <translation>目标将如何读取该文件，以及会改变读取方式的问题</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形态</translation>
    </message>
    <message>
        <source>File problems</source>
        <translation>文件问题</translation>
    </message>
    <message>
        <source>No file open</source>
        <translation>未打开文件</translation>
    </message>
    <message>
        <source>Open a dataset (File ▸ Open), drop one here, or start from a template.</source>
        <translation>打开数据集（文件 ▸ 打开），拖放文件到这里，或从模板开始。</translation>
    </message>
    <message>
        <source>Type your first case in the empty row.</source>
        <translation>在空行中输入第一个用例。</translation>
    </message>
    <message>
        <source>… and {n} more in the Issues panel</source>
        <translation>……检查结果面板中还有 {n} 条</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>No question column: every case needs a question.</source>
        <translation>没有问题列：每条用例都需要一个问题。</translation>
    </message>
    <message>
        <source>Choose the question column…</source>
        <translation>选择问题列…</translation>
    </message>
    <message>
        <source>Save as .xlsx…</source>
        <translation>另存为 .xlsx…</translation>
    </message>
    <message>
        <source>The service will read this file as SINGLE-TURN: header “{header}” is not {want}.</source>
        <translation>服务会把此文件读作 SINGLE-TURN（单轮）：表头“{header}”不是 {want}。</translation>
    </message>
    <message>
        <source>Turn numbers will be ignored: header “{header}” is not {want}.</source>
        <translation>轮次编号将被忽略：表头“{header}”不是 {want}。</translation>
    </message>
    <message>
        <source>Rename “{header}” to {want}</source>
        <translation>将“{header}”重命名为 {want}</translation>
    </message>
</context>
<context>
    <name>CellEditor</name>
    <message>
        <source>Cell text</source>
        <translation>单元格文本</translation>
    </message>
    <message>
        <source>Shift+Enter: new line · Ctrl+Tab: next cell · Esc: cancel</source>
        <translation>Shift+Enter：换行 · Ctrl+Tab：下一个单元格 · Esc：取消</translation>
    </message>
    <message>
        <source>too long</source>
        <translation>过长</translation>
    </message>
    <message>
        <source>{n:,} characters</source>
        <translation>{n:,} 个字符</translation>
    </message>
    <message>
        <source>Expected tool calls (JSON)</source>
        <translation>预期工具调用（JSON）</translation>
    </message>
    <message>
        <source>Repair</source>
        <translation>修复</translation>
    </message>
    <message>
        <source>tool name</source>
        <translation>工具名称</translation>
    </message>
    <message>
        <source>Tool name</source>
        <translation>工具名称</translation>
    </message>
    <message>
        <source>arguments, e.g. {&quot;city&quot;: &quot;Paris&quot;}</source>
        <translation>参数，例如 {&quot;city&quot;: &quot;Paris&quot;}</translation>
    </message>
    <message>
        <source>Arguments (a JSON object)</source>
        <translation>参数（JSON 对象）</translation>
    </message>
    <message>
        <source>Add call</source>
        <translation>添加调用</translation>
    </message>
    <message>
        <source>Enter: done · Ctrl+Tab: next cell · Esc: cancel</source>
        <translation>Enter：完成 · Ctrl+Tab：下一个单元格 · Esc：取消</translation>
    </message>
    <message>
        <source>Empty: no tool calls</source>
        <translation>空：没有工具调用</translation>
    </message>
    <message>
        <source>1 valid call</source>
        <translation>1 个有效调用</translation>
    </message>
    <message>
        <source>{n} valid calls</source>
        <translation>{n} 个有效调用</translation>
    </message>
    <message>
        <source>Error: {problem}</source>
        <translation>错误：{problem}</translation>
    </message>
    <message>
        <source>Fix the JSON above before adding a call</source>
        <translation>请先修正上面的 JSON，再添加调用</translation>
    </message>
    <message>
        <source>Arguments are not JSON: {error}</source>
        <translation>参数不是 JSON：{error}</translation>
    </message>
    <message>
        <source>Arguments must be a JSON object, like {&quot;city&quot;: &quot;Paris&quot;}</source>
        <translation>参数必须是 JSON 对象，例如 {&quot;city&quot;: &quot;Paris&quot;}</translation>
    </message>
    <message>
        <source>({target} {field} limit)</source>
        <translation>（{target} 对 {field} 的上限）</translation>
    </message>
    <message>
        <source>(Excel cell limit)</source>
        <translation>（Excel 单元格上限）</translation>
    </message>
</context>
<context>
    <name>Cells</name>
    <message>
        <source>{n:,} characters:</source>
        <translation>{n:,} 个字符：</translation>
    </message>
</context>
<context>
    <name>Clipboard</name>
    <message>
        <source>Cut</source>
        <translation>剪切</translation>
    </message>
    <message>
        <source>The clipboard holds no text to paste</source>
        <translation>剪贴板中没有可粘贴的文本</translation>
    </message>
    <message>
        <source>Pasted into {n:,} cells</source>
        <translation>已粘贴到 {n:,} 个单元格</translation>
    </message>
    <message>
        <source>Pasted {rows:,} × {columns}, repeated to fill {n:,} cells</source>
        <translation>已粘贴 {rows:,} × {columns}，重复填满 {n:,} 个单元格</translation>
    </message>
    <message>
        <source>Pasted {pasted:,} of {total:,} cells; {n:,} did not fit past the table&apos;s edge and were not pasted</source>
        <translation>已粘贴 {pasted:,} / {total:,} 个单元格；{n:,} 个超出表格边缘，未粘贴</translation>
    </message>
    <message>
        <source>Pasted {rows:,} × {columns}</source>
        <translation>已粘贴 {rows:,} × {columns}</translation>
    </message>
    <message>
        <source>; added columns {headers}</source>
        <translation>；已添加列 {headers}</translation>
    </message>
</context>
<context>
    <name>ColumnHeaders</name>
    <message>
        <source>(no header)</source>
        <translation>（无表头）</translation>
    </message>
    <message>
        <source>NOT read as {want}</source>
        <translation>不会被读作 {want}</translation>
    </message>
    <message>
        <source>unknown · kept</source>
        <translation>未知 · 保留</translation>
    </message>
    <message>
        <source>{field} (duplicate)</source>
        <translation>{field}（重复）</translation>
    </message>
    <message>
        <source>read as {field}</source>
        <translation>读作 {field}</translation>
    </message>
    <message>
        <source>Header {header!r}: {meaning}</source>
        <translation>表头 {header!r}：{meaning}</translation>
    </message>
</context>
<context>
    <name>ContextMenu</name>
    <message>
        <source>Fix: {fix}</source>
        <translation>修复：{fix}</translation>
    </message>
    <message>
        <source>Fix all of this kind: {fix} ({n} {rule})</source>
        <translation>修复所有同类问题：{fix}（{n} 个 {rule}）</translation>
    </message>
    <message>
        <source>Rename to {header}</source>
        <translation>重命名为 {header}</translation>
    </message>
    <message>
        <source>Re&amp;name Column…</source>
        <translation>重命名列(&amp;N)…</translation>
    </message>
    <message>
        <source>Insert Column &amp;Left…</source>
        <translation>在左侧插入列(&amp;L)…</translation>
    </message>
    <message>
        <source>Insert Column &amp;Right…</source>
        <translation>在右侧插入列(&amp;R)…</translation>
    </message>
    <message>
        <source>Re&amp;move Column</source>
        <translation>删除列(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Add Column…</source>
        <translation>添加列(&amp;A)…</translation>
    </message>
</context>
<context>
    <name>ConversationPanel</name>
    <message>
        <source>Conversation panel</source>
        <translation>对话面板</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>The selected row&apos;s conversation, turn by turn, as the service replays it. Tab moves between the turns&apos; links; Enter selects that row.</source>
        <translation>所选行所在的对话，按服务回放的顺序逐轮显示。Tab 在各轮链接间移动；Enter 选中该行。</translation>
    </message>
    <message>
        <source>Select a row to see its conversation.</source>
        <translation>选择一行以查看其对话。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Single-turn case&lt;/b&gt; (no session id)</source>
        <translation>&lt;b&gt;单轮用例&lt;/b&gt;（没有会话 ID）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Conversation {sid}&lt;/b&gt; — 1 turn, in the order the service replays them</source>
        <translation>&lt;b&gt;对话 {sid}&lt;/b&gt; — 1 轮，按服务回放的顺序</translation>
    </message>
    <message>
        <source>&lt;b&gt;Conversation {sid}&lt;/b&gt; — {n} turns, in the order the service replays them</source>
        <translation>&lt;b&gt;对话 {sid}&lt;/b&gt; — {n} 轮，按服务回放的顺序</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Expected answer</source>
        <translation>预期答案</translation>
    </message>
    <message>
        <source>Expected tool calls</source>
        <translation>预期工具调用</translation>
    </message>
    <message>
        <source>Turn {n}</source>
        <translation>第 {n} 轮</translation>
    </message>
    <message>
        <source>({header} {value})</source>
        <translation>（{header} {value}）</translation>
    </message>
    <message>
        <source>selected</source>
        <translation>已选中</translation>
    </message>
    <message>
        <source>row {n}</source>
        <translation>第 {n} 行</translation>
    </message>
    <message>
        <source>… and {n} more turns.</source>
        <translation>……还有 {n} 轮。</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <source>CSV, UTF-8 (*.csv)</source>
        <translation>CSV，UTF-8 (*.csv)</translation>
    </message>
    <message>
        <source>SDK JSON (*.json)</source>
        <translation>SDK JSON (*.json)</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Save the changes to {name}?</source>
        <translation>保存对 {name} 的更改吗？</translation>
    </message>
    <message>
        <source>Your changes will be lost if you don&apos;t save them.</source>
        <translation>如果不保存，你的更改将会丢失。</translation>
    </message>
    <message>
        <source>Open dataset</source>
        <translation>打开数据集</translation>
    </message>
    <message>
        <source>Save dataset as</source>
        <translation>数据集另存为</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 处匹配</translation>
    </message>
    <message>
        <source>{n:,} matches</source>
        <translation>{n:,} 处匹配</translation>
    </message>
    <message>
        <source>1 cell</source>
        <translation>1 个单元格</translation>
    </message>
    <message>
        <source>{n:,} cells</source>
        <translation>{n:,} 个单元格</translation>
    </message>
    <message>
        <source>Replace all</source>
        <translation>全部替换</translation>
    </message>
    <message>
        <source>Replace {matches} in {cells}?
This is one step in Undo.</source>
        <translation>替换 {cells}中的 {matches}吗？
可一步撤销。</translation>
    </message>
    <message>
        <source>File changed on disk</source>
        <translation>磁盘上的文件已更改</translation>
    </message>
    <message>
        <source>“{name}” was changed by another program.</source>
        <translation>“{name}”已被其他程序修改。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Reload&lt;/b&gt; shows the version on disk; your unsaved changes in this window are lost.&lt;br&gt;&lt;b&gt;Keep Mine&lt;/b&gt; goes on with your version; saving replaces the file on disk.&lt;br&gt;&lt;b&gt;Save As…&lt;/b&gt; saves your version under another name, so both are kept.</source>
        <translation>&lt;b&gt;重新加载&lt;/b&gt;：显示磁盘上的版本；此窗口中未保存的更改将丢失。&lt;br&gt;&lt;b&gt;保留我的&lt;/b&gt;：继续使用你的版本；保存时将替换磁盘上的文件。&lt;br&gt;&lt;b&gt;另存为…&lt;/b&gt;：以其他名称保存你的版本，两个版本都会保留。</translation>
    </message>
    <message>
        <source>You have no unsaved changes here.&lt;br&gt;&lt;b&gt;Reload&lt;/b&gt; shows the version on disk.&lt;br&gt;&lt;b&gt;Keep Mine&lt;/b&gt; goes on with the version shown here; saving replaces the file on disk.&lt;br&gt;&lt;b&gt;Save As…&lt;/b&gt; saves the version shown here under another name, so both are kept.</source>
        <translation>此处没有未保存的更改。&lt;br&gt;&lt;b&gt;重新加载&lt;/b&gt;：显示磁盘上的版本。&lt;br&gt;&lt;b&gt;保留我的&lt;/b&gt;：继续使用此处显示的版本；保存时将替换磁盘上的文件。&lt;br&gt;&lt;b&gt;另存为…&lt;/b&gt;：以其他名称保存此处显示的版本，两个版本都会保留。</translation>
    </message>
    <message>
        <source>Not everything can be saved</source>
        <translation>无法保存全部内容</translation>
    </message>
    <message>
        <source>A .{format} file cannot hold everything that is open here.</source>
        <translation>.{format} 文件无法容纳此处打开的全部内容。</translation>
    </message>
    <message>
        <source>The new file leaves this out; the file it came from is not changed, and this window keeps it until it is closed.</source>
        <translation>新文件不包含这些内容；原文件不会改变，此窗口在关闭前也会一直保留它们。</translation>
    </message>
    <message>
        <source>Left out:</source>
        <translation>不包含：</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>When Excel opens a CSV file it runs such cells as formulas, which can be harmful if the data came from elsewhere.

Write As Is keeps every cell exactly as it is here.
Add an apostrophe makes Excel show them as text, but changes the cells: they start with &apos; in this window and in the file, and read back that way (Undo removes it here).</source>
        <translation>Excel 打开 CSV 文件时会把这类单元格当作公式运行；如果数据来自别处，这可能有害。

“按原样写入”让每个单元格与此处完全相同。
“加上撇号”让 Excel 把它们显示为文本，但会改变单元格：它们在此窗口和文件中都以 &apos; 开头，重新打开时也是如此（在此处撤销即可去掉）。</translation>
    </message>
    <message>
        <source>Add an &amp;Apostrophe (cells read back with &apos;)</source>
        <translation>加上撇号(&amp;A)（重新打开时单元格以 &apos; 开头）</translation>
    </message>
    <message>
        <source>{place}: expected {expected}, found {found}</source>
        <translation>{place}：应为 {expected}，实际为 {found}</translation>
    </message>
    <message>
        <source>&lt;b&gt;evaleditor did not close normally&lt;/b&gt;, and these files had unsaved changes. Restore them?</source>
        <translation>&lt;b&gt;evaleditor 未正常关闭&lt;/b&gt;，以下文件有未保存的更改。要恢复吗？</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>最后更改</translation>
    </message>
    <message>
        <source>Restored files open with their changes unsaved: save them to keep the changes. Files you untick are discarded.</source>
        <translation>恢复的文件打开后，其更改仍未保存：请保存以保留这些更改。取消勾选的文件将被丢弃。</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>重新加载(&amp;R)</translation>
    </message>
    <message>
        <source>Datasets (*.xlsx *.xlsm *.xls *.ods *.csv *.tsv *.txt *.json *.jsonl);;Spreadsheets (*.xlsx *.xlsm *.xls *.ods);;CSV / tab-separated (*.csv *.tsv *.txt);;SDK JSON (*.json);;JSON Lines (*.jsonl);;All files (*)</source>
        <translation>数据集 (*.xlsx *.xlsm *.xls *.ods *.csv *.tsv *.txt *.json *.jsonl);;电子表格 (*.xlsx *.xlsm *.xls *.ods);;CSV / 制表符分隔 (*.csv *.tsv *.txt);;SDK JSON (*.json);;JSON Lines (*.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>The rows hidden by the filter have no matches.</source>
        <translation>被筛选隐藏的行中没有匹配项。</translation>
    </message>
    <message>
        <source>1 match in the rows hidden by the filter is left as it is.</source>
        <translation>被筛选隐藏的行中有 1 处匹配，保持不变。</translation>
    </message>
    <message>
        <source>{n:,} matches in the rows hidden by the filter are left as they are.</source>
        <translation>被筛选隐藏的行中有 {n:,} 处匹配，保持不变。</translation>
    </message>
    <message>
        <source>Replace {matches} in {cells} in the filtered rows?
{left}
This is one step in Undo.</source>
        <translation>在筛选出的行中替换 {cells}中的 {matches}吗？
{left}
可一步撤销。</translation>
    </message>
    <message>
        <source>&amp;Keep Mine</source>
        <translation>保留我的(&amp;K)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Sort would scramble conversations</source>
        <translation>排序会打乱对话</translation>
    </message>
    <message>
        <source>Sorting by “{column}” puts the turns of conversation {example} out of order.</source>
        <translation>按“{column}”排序会使对话 {example} 的轮次顺序错乱。</translation>
    </message>
    <message>
        <source>Sorting by “{column}” puts the turns of {n} conversations out of order (for example {example}).</source>
        <translation>按“{column}”排序会使 {n} 个对话的轮次顺序错乱（例如 {example}）。</translation>
    </message>
    <message>
        <source>The service replays each conversation in turn order, or in file order without a turn column. Sort by Session and Turn keeps every conversation whole and in order.</source>
        <translation>服务按轮次顺序回放每个对话；没有轮次列时按文件顺序。“按会话和轮次排序”会让每个对话保持完整且顺序正确。</translation>
    </message>
    <message>
        <source>Sort by &amp;Session and Turn</source>
        <translation>按会话和轮次排序(&amp;S)</translation>
    </message>
    <message>
        <source>Sort &amp;Anyway</source>
        <translation>仍然排序(&amp;A)</translation>
    </message>
    <message>
        <source>This save keeps only the open sheet: the workbook&apos;s other sheets are not written.</source>
        <translation>此次保存只保留当前打开的工作表：工作簿中的其他工作表不会写入。</translation>
    </message>
    <message>
        <source>Saving replaces “{name}”, and this is lost from it. &lt;b&gt;Save As…&lt;/b&gt; writes a new file, which leaves this out too, and keeps this one whole.</source>
        <translation>保存会替换“{name}”，其中的这些内容将丢失。&lt;b&gt;另存为…&lt;/b&gt;会写入新文件（新文件同样不包含这些内容），并完整保留此文件。</translation>
    </message>
    <message>
        <source>&amp;Save Anyway</source>
        <translation>仍然保存(&amp;S)</translation>
    </message>
    <message>
        <source>Read-only file</source>
        <translation>只读文件</translation>
    </message>
    <message>
        <source>{name} is read-only.</source>
        <translation>{name} 是只读文件。</translation>
    </message>
    <message>
        <source>Replace it anyway? The new file stays read-only.</source>
        <translation>仍然替换它吗？新文件仍为只读。</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>替换(&amp;R)</translation>
    </message>
    <message>
        <source>Cells that Excel runs as formulas</source>
        <translation>Excel 会当作公式运行的单元格</translation>
    </message>
    <message>
        <source>1 cell starts with =, +, - or @.</source>
        <translation>1 个单元格以 =、+、- 或 @ 开头。</translation>
    </message>
    <message>
        <source>{n:,} cells start with =, +, - or @.</source>
        <translation>{n:,} 个单元格以 =、+、- 或 @ 开头。</translation>
    </message>
    <message>
        <source>Write As &amp;Is</source>
        <translation>按原样写入(&amp;I)</translation>
    </message>
    <message>
        <source>Save in another encoding?</source>
        <translation>以其他编码保存？</translation>
    </message>
    <message>
        <source>{name} is written in {encoding}, which cannot hold “{char}”.</source>
        <translation>{name} 使用 {encoding} 编码，无法保存“{char}”。</translation>
    </message>
    <message>
        <source>Save As UTF-8 writes it as UTF-8 with a BOM, which every character fits and Excel opens; its delimiter and line ends stay as they are.</source>
        <translation>“另存为 UTF-8”会以带 BOM 的 UTF-8 写入，可容纳所有字符，Excel 也能打开；分隔符和换行符保持不变。</translation>
    </message>
    <message>
        <source>Save As &amp;UTF-8</source>
        <translation>另存为 &amp;UTF-8</translation>
    </message>
    <message>
        <source>(nothing)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>the file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>header “{column}”</source>
        <translation>表头“{column}”</translation>
    </message>
    <message>
        <source>row {row}</source>
        <translation>第 {row} 行</translation>
    </message>
    <message>
        <source>row {row}, column {column}</source>
        <translation>第 {row} 行，列 {column}</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <source>The file was not saved: it did not read back as written.</source>
        <translation>文件未保存：读回的内容与写入的不一致。</translation>
    </message>
    <message>
        <source>… and {n:,} more</source>
        <translation>… 另有 {n:,} 处</translation>
    </message>
    <message>
        <source>{path} is unchanged, and your changes are still here, unsaved.</source>
        <translation>{path} 未被改动；你的更改仍在此处，尚未保存。</translation>
    </message>
    <message>
        <source>1 cell differs:</source>
        <translation>1 个单元格不一致：</translation>
    </message>
    <message>
        <source>{n:,} cells differ:</source>
        <translation>{n:,} 个单元格不一致：</translation>
    </message>
    <message>
        <source>Restore unsaved changes</source>
        <translation>恢复未保存的更改</translation>
    </message>
    <message>
        <source>Unsaved changes found</source>
        <translation>发现未保存的更改</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard All</source>
        <translation>全部丢弃(&amp;D)</translation>
    </message>
    <message>
        <source>A header cannot be empty or only spaces.</source>
        <translation>表头不能为空，也不能只有空格。</translation>
    </message>
    <message>
        <source>Another column is already headed “{header}”: the file will have two columns with that header.</source>
        <translation>已有一列的表头是“{header}”：文件中将有两列使用这个表头。</translation>
    </message>
    <message>
        <source>Choose a sheet</source>
        <translation>选择工作表</translation>
    </message>
    <message>
        <source>Sheet:</source>
        <translation>工作表：</translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>LibreOffice .ods files are opened but not written (no well-kept library writes them): saving as .xlsx, which LibreOffice opens as it is</source>
        <translation>LibreOffice .ods 文件只能打开、不能写入（没有维护良好的库能写入）：将另存为 .xlsx，LibreOffice 可直接打开</translation>
    </message>
    <message>
        <source>semicolons</source>
        <translation>分号分隔</translation>
    </message>
    <message>
        <source>tabs</source>
        <translation>制表符分隔</translation>
    </message>
    <message>
        <source>written as UTF-8 with commas, as evaluation services read CSV (it was {was})</source>
        <translation>已按评测服务读取 CSV 的方式写为 UTF-8、逗号分隔（原为 {was}）</translation>
    </message>
    <message>
        <source>Wait for the current load or save to finish (or cancel it)</source>
        <translation>请等待当前的打开或保存完成（或取消它）</translation>
    </message>
    <message>
        <source>Opening {name}…</source>
        <translation>正在打开 {name}…</translation>
    </message>
    <message>
        <source>Cannot open the file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Opened {name} as {encoding} (its bytes fit other encodings too: File ▸ Reopen with Encoding): {shape}</source>
        <translation>已按 {encoding} 打开 {name}（其字节也符合其他编码：文件 ▸ 以其他编码重新打开）：{shape}</translation>
    </message>
    <message>
        <source>Opened {name}: {shape}</source>
        <translation>已打开 {name}：{shape}</translation>
    </message>
    <message>
        <source>Only a text file (.csv, .tsv, .txt) is read in an encoding</source>
        <translation>只有文本文件（.csv、.tsv、.txt）才按编码读取</translation>
    </message>
    <message>
        <source>Checking against {target}</source>
        <translation>按 {target} 检查</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
    <message>
        <source>The window stays open until the save or load under way has ended: close it again then</source>
        <translation>窗口会保持打开，直到正在进行的保存或打开结束：届时请再次关闭</translation>
    </message>
    <message>
        <source>written as UTF-8: {encoding} cannot hold every character</source>
        <translation>已写为 UTF-8：{encoding} 无法容纳所有字符</translation>
    </message>
    <message>
        <source>Saving {name}…</source>
        <translation>正在保存 {name}…</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>{job} The table is read-only until it ends: that key was not taken</source>
        <translation>{job} 表格在其结束前为只读：该按键未被接受</translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <source>All conversations</source>
        <translation>所有对话</translation>
    </message>
    <message>
        <source>Filter rows containing…</source>
        <translation>筛选包含以下内容的行…</translation>
    </message>
    <message>
        <source>Filter text</source>
        <translation>筛选文本</translation>
    </message>
    <message>
        <source>C&amp;onversation:</source>
        <translation>对话(&amp;O)：</translation>
    </message>
    <message>
        <source>Conversation filter</source>
        <translation>对话筛选</translation>
    </message>
    <message>
        <source>Has errors</source>
        <translation>有错误</translation>
    </message>
    <message>
        <source>Has warnings</source>
        <translation>有警告</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Clear the filter</source>
        <translation>清除筛选</translation>
    </message>
    <message>
        <source>Filter bar</source>
        <translation>筛选栏</translation>
    </message>
    <message>
        <source>Show only the rows containing a text, of one conversation, or with errors or warnings</source>
        <translation>只显示包含某文本、属于某个对话或有错误、警告的行</translation>
    </message>
    <message>
        <source>Showing {shown:,} of {total:,} rows</source>
        <translation>显示 {total:,} 行中的 {shown:,} 行</translation>
    </message>
</context>
<context>
    <name>FindReplace</name>
    <message>
        <source>1 match</source>
        <translation>1 处匹配</translation>
    </message>
    <message>
        <source>{n:,} matches</source>
        <translation>{n:,} 处匹配</translation>
    </message>
    <message>
        <source>1 cell</source>
        <translation>1 个单元格</translation>
    </message>
    <message>
        <source>{n:,} cells</source>
        <translation>{n:,} 个单元格</translation>
    </message>
    <message>
        <source>{matches} in {cells}</source>
        <translation>{cells}中有 {matches}</translation>
    </message>
    <message>
        <source>Find and replace</source>
        <translation>查找和替换</translation>
    </message>
    <message>
        <source>text or regular expression</source>
        <translation>文本或正则表达式</translation>
    </message>
    <message>
        <source>replacement (\1 for a group when regex)</source>
        <translation>替换为（正则时用 \1 表示分组）</translation>
    </message>
    <message>
        <source>Regular e&amp;xpression</source>
        <translation>正则表达式(&amp;X)</translation>
    </message>
    <message>
        <source>Match &amp;case</source>
        <translation>区分大小写(&amp;C)</translation>
    </message>
    <message>
        <source>W&amp;hole cell</source>
        <translation>整个单元格(&amp;H)</translation>
    </message>
    <message>
        <source>In &amp;selection only</source>
        <translation>仅限所选内容(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Find:</source>
        <translation>查找(&amp;F)：</translation>
    </message>
    <message>
        <source>Re&amp;place with:</source>
        <translation>替换为(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Within:</source>
        <translation>范围(&amp;W)：</translation>
    </message>
    <message>
        <source>Find &amp;next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <source>Find pre&amp;vious</source>
        <translation>查找上一个(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>替换(&amp;R)</translation>
    </message>
    <message>
        <source>Replace &amp;all</source>
        <translation>全部替换(&amp;A)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>All columns</source>
        <translation>所有列</translation>
    </message>
    <message>
        <source>(no header)</source>
        <translation>（无表头）</translation>
    </message>
    <message>
        <source>Replacing…</source>
        <translation>正在替换…</translation>
    </message>
    <message>
        <source>Cannot replace</source>
        <translation>无法替换</translation>
    </message>
    <message>
        <source>Counting… {matches} so far</source>
        <translation>正在计数……目前 {matches}</translation>
    </message>
    <message>
        <source>{count} in the selection</source>
        <translation>所选内容中：{count}</translation>
    </message>
    <message>
        <source>{count} in the filtered rows; {hidden} in hidden rows</source>
        <translation>筛选出的行中 {count}；隐藏的行中 {hidden}</translation>
    </message>
    <message>
        <source>{count} in the filtered rows</source>
        <translation>筛选后的行中：{count}</translation>
    </message>
    <message>
        <source>Replaced 1 match. Undo reverts it.</source>
        <translation>已替换 1 处匹配。撤销可还原。</translation>
    </message>
    <message>
        <source>Replaced {n:,} matches. Undo reverts them all.</source>
        <translation>已替换 {n:,} 处匹配。撤销可全部还原。</translation>
    </message>
    <message>
        <source>Replaced {n:,}</source>
        <translation>已替换 {n:,} 处</translation>
    </message>
</context>
<context>
    <name>FirstTip</name>
    <message>
        <source>New here?</source>
        <translation>初次使用？</translation>
    </message>
    <message>
        <source>The banner above says how the target will read this file. The Issues panel below lists every problem (each rule id links to its explanation); F8 jumps to the next one. File ▸ Preview Upload… shows exactly what the target will receive. F1 opens the help.</source>
        <translation>上方的横幅说明目标将如何读取此文件。下方的检查结果面板列出所有检查项（每个规则 ID 都链接到其说明）；按 F8 跳到下一个。文件 ▸ 上传预览… 准确显示目标将收到的内容。按 F1 打开帮助。</translation>
    </message>
    <message>
        <source>&amp;Open Help</source>
        <translation>打开帮助(&amp;O)</translation>
    </message>
    <message>
        <source>Got &amp;It</source>
        <translation>知道了(&amp;I)</translation>
    </message>
    <message>
        <source>Do not show this tip again</source>
        <translation>不再显示此提示</translation>
    </message>
    <message>
        <source>Tip for new users</source>
        <translation>新用户提示</translation>
    </message>
</context>
<context>
    <name>Help</name>
    <message>
        <source>move down / up (finish an edit and move down)</source>
        <translation>下移 / 上移（结束编辑并下移）</translation>
    </message>
    <message>
        <source>move right / left</source>
        <translation>右移 / 左移</translation>
    </message>
    <message>
        <source>edit the cell keeping its text (typing replaces it)</source>
        <translation>编辑单元格并保留其文本（直接输入则替换）</translation>
    </message>
    <message>
        <source>zoom the table in or out</source>
        <translation>放大或缩小表格</translation>
    </message>
    <message>
        <source>the cell&apos;s menu, its quick fixes first</source>
        <translation>单元格菜单，快速修复在最前</translation>
    </message>
    <message>
        <source>evaleditor Help</source>
        <translation>evaleditor 帮助</translation>
    </message>
    <message>
        <source>The banner above the table says how the target will read the file (the shape line); a loud strip warns when a header turns a conversation file into single-turn cases, with a button that fixes it.</source>
        <translation>表格上方的横幅说明目标将如何读取文件（形态行）；当某个表头会让对话文件变成单轮用例时，醒目的提示条会发出警告，并附带一键修复按钮。</translation>
    </message>
    <message>
        <source>The Issues panel lists every problem: click one to go to its cell; Fix all repairs every issue of a kind as one undo step; each rule id links to its explanation below.</source>
        <translation>检查结果面板列出所有检查项：单击一项即可跳到其单元格；“全部修复”将同类检查项一次修复，可一步撤销；每个规则 ID 都链接到下方的说明。</translation>
    </message>
    <message>
        <source>F8 and Shift+F8 walk from one issue to the next in the table.</source>
        <translation>F8 和 Shift+F8 在表格中逐个跳到下一个 / 上一个检查项。</translation>
    </message>
    <message>
        <source>File ▸ Preview Upload… (or the button beside the shape line) shows exactly what the target will receive: conversations in replay order, accepted and rejected cases, SDK cases as JSON.</source>
        <translation>文件 ▸ 上传预览…（或形态行旁的按钮）准确显示目标将收到的内容：按回放顺序排列的对话、被接受和被拒绝的用例、以 JSON 表示的 SDK 用例。</translation>
    </message>
    <message>
        <source>First steps</source>
        <translation>入门</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Rules reference</source>
        <translation>规则参考</translation>
    </message>
    <message>
        <source>Ctrl++ inserts and Ctrl+- deletes rows, as in Excel and LibreOffice Calc; zoom with Ctrl+Wheel, Ctrl+Alt+= and Ctrl+Alt+- (Excel&apos;s zoom keys), Ctrl+0 for 100%.</source>
        <translation>Ctrl++ 插入行、Ctrl+- 删除行，与 Excel 和 LibreOffice Calc 相同；缩放请用 Ctrl+滚轮、Ctrl+Alt+= 和 Ctrl+Alt+-（Excel 的缩放键），Ctrl+0 恢复 100%。</translation>
    </message>
    <message>
        <source>Every issue names one of these rules. Severity is given for ground-truth and sdk, then for evaluation-set; rule ids stay English in every language.</source>
        <translation>每个检查项都对应下列规则之一。严重程度先列 ground-truth 和 sdk 下的，再列 evaluation-set 下的；规则 ID 在任何语言中都保持英文。</translation>
    </message>
    <message>
        <source>({target} only)</source>
        <translation>（仅 {target}）</translation>
    </message>
    <message>
        <source>(evaluation-set only)</source>
        <translation>（仅 evaluation-set）</translation>
    </message>
    <message>
        <source>Quick fix: {fix}</source>
        <translation>快速修复：{fix}</translation>
    </message>
</context>
<context>
    <name>Issues</name>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>{severity}: {message} [{rule}]</source>
        <translation>{severity}：{message} [{rule}]</translation>
    </message>
</context>
<context>
    <name>IssuesPanel</name>
    <message>
        <source>Show errors</source>
        <translation>显示错误</translation>
    </message>
    <message>
        <source>Show warnings</source>
        <translation>显示警告</translation>
    </message>
    <message>
        <source>Show info</source>
        <translation>显示提示</translation>
    </message>
    <message>
        <source>Rule filter</source>
        <translation>规则筛选</translation>
    </message>
    <message>
        <source>Issues</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>Every issue of the file. Enter goes to its cell; F8 and Shift+F8 walk them from the table.</source>
        <translation>文件中的所有检查项。Enter 跳到对应单元格；在表格中用 F8 和 Shift+F8 逐个浏览。</translation>
    </message>
    <message>
        <source>Issues panel</source>
        <translation>检查结果面板</translation>
    </message>
    <message>
        <source>All rules</source>
        <translation>所有规则</translation>
    </message>
    <message>
        <source>{severity}: {title}</source>
        <translation>{severity}：{title}</translation>
    </message>
    <message>
        <source>{n} × {severity}</source>
        <translation>{n} × {severity}</translation>
    </message>
    <message>
        <source>Fix all: {fix} ({n})</source>
        <translation>全部修复：{fix}（{n}）</translation>
    </message>
    <message>
        <source>Fix all</source>
        <translation>全部修复</translation>
    </message>
    <message>
        <source>Fix every {rule} issue as one undo step</source>
        <translation>修复所有 {rule} 检查项，作为一个撤销步骤</translation>
    </message>
    <message>
        <source>Choose a rule (or an issue) that has a quick fix</source>
        <translation>请选择有快速修复的规则（或检查项）</translation>
    </message>
    <message>
        <source>{fix} — {rule} ({n})</source>
        <translation>{fix} — {rule}（{n}）</translation>
    </message>
    <message>
        <source>Fix all (1 kind)</source>
        <translation>全部修复（1 类）</translation>
    </message>
    <message>
        <source>Fix all ({n} kinds)</source>
        <translation>全部修复（{n} 类）</translation>
    </message>
    <message>
        <source>Every kind of issue with a quick fix; each is one undo step</source>
        <translation>所有可快速修复的问题类别；每类为一步撤销</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>{name} (not saved yet)</source>
        <translation>{name}（尚未保存）</translation>
    </message>
    <message>
        <source>sheet “{sheet}” of {n}</source>
        <translation>工作表“{sheet}”（共 {n} 个）</translation>
    </message>
    <message>
        <source>sheet “{sheet}”</source>
        <translation>工作表“{sheet}”</translation>
    </message>
    <message>
        <source>Another column is also headed “{header}”: the file will have two columns with that header</source>
        <translation>另一列的表头也是“{header}”：文件中将有两列使用这个表头</translation>
    </message>
    <message>
        <source>Row {n} · {column}</source>
        <translation>第 {n} 行 · {column}</translation>
    </message>
    <message>
        <source>Copied {n:,} cells</source>
        <translation>已复制 {n:,} 个单元格</translation>
    </message>
    <message>
        <source>Issues</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>One row per test case. Type to replace a cell, F2 to edit it, F8 for the next issue.</source>
        <translation>每行一条测试用例。直接输入替换单元格，F2 编辑，F8 跳到下一个检查项。</translation>
    </message>
    <message>
        <source>Current cell</source>
        <translation>当前单元格</translation>
    </message>
    <message>
        <source>{n} error</source>
        <translation>{n} 个错误</translation>
    </message>
    <message>
        <source>{n} errors</source>
        <translation>{n} 个错误</translation>
    </message>
    <message>
        <source>{n} warning</source>
        <translation>{n} 个警告</translation>
    </message>
    <message>
        <source>{n} warnings</source>
        <translation>{n} 个警告</translation>
    </message>
    <message>
        <source>{n} info</source>
        <translation>{n} 个提示</translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Delete Cells</source>
        <translation>删除单元格(&amp;D)</translation>
    </message>
    <message>
        <source>Insert Row &amp;Above</source>
        <translation>在上方插入行(&amp;A)</translation>
    </message>
    <message>
        <source>Insert Row &amp;Below</source>
        <translation>在下方插入行(&amp;B)</translation>
    </message>
    <message>
        <source>A new row at the end of the selected row&apos;s conversation, with the next turn number</source>
        <translation>在所选行所属对话的末尾添加一行，并使用下一个轮次编号</translation>
    </message>
    <message>
        <source>A new row with a new session id, turn 1</source>
        <translation>添加一行，使用新的会话 ID，第 1 轮</translation>
    </message>
    <message>
        <source>Move Rows Do&amp;wn</source>
        <translation>下移行(&amp;W)</translation>
    </message>
    <message>
        <source>Open Another S&amp;heet…</source>
        <translation>打开另一个工作表(&amp;H)…</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>An empty document with the headers of the target checked against</source>
        <translation>一个空文档，带有当前检查目标的表头</translation>
    </message>
    <message>
        <source>New from &amp;Template</source>
        <translation>从模板新建(&amp;T)</translation>
    </message>
    <message>
        <source>Reopen with &amp;Encoding</source>
        <translation>以其他编码重新打开(&amp;E)</translation>
    </message>
    <message>
        <source>Pre&amp;view Upload…</source>
        <translation>上传预览(&amp;V)…</translation>
    </message>
    <message>
        <source>What the target will receive from this file, case by case, made by the code that saves</source>
        <translation>目标将从此文件收到的内容，逐个用例显示，由保存所用的同一代码生成</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>Fi&amp;ll Down</source>
        <translation>向下填充(&amp;L)</translation>
    </message>
    <message>
        <source>Copy the top cell of each selected column into the selected cells below it (one row selected: the row above)</source>
        <translation>将每个所选列的顶部单元格复制到其下方的所选单元格（只选一行时：复制上一行）</translation>
    </message>
    <message>
        <source>Fill Ri&amp;ght</source>
        <translation>向右填充(&amp;G)</translation>
    </message>
    <message>
        <source>Copy the leftmost cell of each selected row into the selected cells right of it (one column selected: the column to the left)</source>
        <translation>将每个所选行最左侧的单元格复制到其右侧的所选单元格（只选一列时：复制左侧一列）</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>R&amp;eplace…</source>
        <translation>替换(&amp;E)…</translation>
    </message>
    <message>
        <source>Dupl&amp;icate Rows</source>
        <translation>复制为新行(&amp;I)</translation>
    </message>
    <message>
        <source>Delete R&amp;ows</source>
        <translation>删除行(&amp;O)</translation>
    </message>
    <message>
        <source>Add Tur&amp;n to Conversation</source>
        <translation>为对话添加一轮(&amp;N)</translation>
    </message>
    <message>
        <source>New Conver&amp;sation</source>
        <translation>新建对话(&amp;S)</translation>
    </message>
    <message>
        <source>Mo&amp;ve Rows Up</source>
        <translation>上移行(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Data</source>
        <translation>数据(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Target</source>
        <translation>目标(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Headers When Saving As</source>
        <translation>另存时的表头(&amp;H)</translation>
    </message>
    <message>
        <source>Keep As They Are</source>
        <translation>保持原样</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <source>Chinese (中文, evaluation-set)</source>
        <translation>中文（evaluation-set）</translation>
    </message>
    <message>
        <source>&amp;Sort by Session and Turn</source>
        <translation>按会话和轮次排序(&amp;S)</translation>
    </message>
    <message>
        <source>Gather each conversation at its first row, turns in order; other rows keep their place</source>
        <translation>把每个对话集中到它的第一行处，各轮按顺序排列；其他行位置不变</translation>
    </message>
    <message>
        <source>&amp;Renumber Turns</source>
        <translation>重新编号轮次(&amp;R)</translation>
    </message>
    <message>
        <source>Number every conversation&apos;s turns 1, 2, 3 …</source>
        <translation>将每个对话的轮次编号为 1、2、3 …</translation>
    </message>
    <message>
        <source>&amp;Fix All</source>
        <translation>全部修复(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Filter Bar</source>
        <translation>筛选栏(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Wrap Text</source>
        <translation>自动换行(&amp;W)</translation>
    </message>
    <message>
        <source>Show long and multi-line cells in full, on taller rows</source>
        <translation>用更高的行完整显示长文本和多行单元格</translation>
    </message>
    <message>
        <source>Freeze First &amp;Column</source>
        <translation>冻结首列(&amp;C)</translation>
    </message>
    <message>
        <source>Keep the first column in view while scrolling right (the row gutter always stays)</source>
        <translation>向右滚动时保持第一列可见（行号栏始终可见）</translation>
    </message>
    <message>
        <source>&amp;Zoom</source>
        <translation>缩放(&amp;Z)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual Size (100%)</source>
        <translation>实际大小 (100%)(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;System Language</source>
        <translation>系统语言(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Next Issue</source>
        <translation>下一个检查项(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Issue</source>
        <translation>上一个检查项(&amp;P)</translation>
    </message>
    <message>
        <source>Show Only This &amp;Conversation</source>
        <translation>只显示此对话(&amp;C)</translation>
    </message>
    <message>
        <source>Cases &amp;Table</source>
        <translation>用例表格(&amp;T)</translation>
    </message>
    <message>
        <source>Move the keyboard focus to the cases table</source>
        <translation>将键盘焦点移到用例表格</translation>
    </message>
    <message>
        <source>&amp;Issues Panel</source>
        <translation>检查结果面板(&amp;I)</translation>
    </message>
    <message>
        <source>Show the Issues panel and move the keyboard focus to its list</source>
        <translation>显示检查结果面板，并将键盘焦点移到其列表</translation>
    </message>
    <message>
        <source>Con&amp;versation Panel</source>
        <translation>对话面板(&amp;V)</translation>
    </message>
    <message>
        <source>Show the Conversation panel and move the keyboard focus to it</source>
        <translation>显示对话面板，并将键盘焦点移到其中</translation>
    </message>
    <message>
        <source>&amp;Filter Rows…</source>
        <translation>筛选行(&amp;F)…</translation>
    </message>
    <message>
        <source>Show the filter bar and move the keyboard focus to its text</source>
        <translation>显示筛选栏，并将键盘焦点移到其文本框</translation>
    </message>
    <message>
        <source>Ne&amp;xt Pane</source>
        <translation>下一个窗格(&amp;X)</translation>
    </message>
    <message>
        <source>Previous P&amp;ane</source>
        <translation>上一个窗格(&amp;A)</translation>
    </message>
    <message>
        <source>evaleditor &amp;Help</source>
        <translation>evaleditor 帮助(&amp;H)</translation>
    </message>
    <message>
        <source>First steps, keyboard shortcuts and the rules reference (at the rule of the selected issue)</source>
        <translation>入门、快捷键和规则参考（定位到所选检查项的规则）</translation>
    </message>
    <message>
        <source>{fix} — {rule} ({n})</source>
        <translation>{fix} — {rule}（{n}）</translation>
    </message>
    <message>
        <source>(nothing to fix automatically)</source>
        <translation>（没有可自动修复的问题）</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Colu&amp;mns</source>
        <translation>列(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Add Column…</source>
        <translation>添加列(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Rename Column…</source>
        <translation>重命名列(&amp;R)…</translation>
    </message>
    <message>
        <source>Re&amp;move Column</source>
        <translation>删除列(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;About evaleditor</source>
        <translation>关于 evaleditor(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Undo {command}</source>
        <translation>撤销“{command}”(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo {command}</source>
        <translation>重做“{command}”(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Clear Recent Files</source>
        <translation>清除最近文件</translation>
    </message>
</context>
<context>
    <name>Operations</name>
    <message>
        <source>Select the rows to duplicate</source>
        <translation>请选择要复制的行</translation>
    </message>
    <message>
        <source>Select the rows to delete</source>
        <translation>请选择要删除的行</translation>
    </message>
    <message>
        <source>This row is not in a conversation (its session id is empty)</source>
        <translation>此行不属于任何对话（会话 ID 为空）</translation>
    </message>
    <message>
        <source>Rename the misspelled session column first (see the banner)</source>
        <translation>请先重命名拼写有误的会话列（见顶部横幅）</translation>
    </message>
    <message>
        <source>Nothing to fill: select the cell to copy and the cells below it</source>
        <translation>没有可填充的内容：请选中要复制的单元格及其下方的单元格</translation>
    </message>
    <message>
        <source>Nothing to fill: select the cell to copy and the cells right of it</source>
        <translation>没有可填充的内容：请选中要复制的单元格及其右侧的单元格</translation>
    </message>
    <message>
        <source>The cells already hold that text</source>
        <translation>这些单元格已是该文本</translation>
    </message>
    <message>
        <source>Filled {n:,} cells</source>
        <translation>已填充 {n:,} 个单元格</translation>
    </message>
    <message>
        <source>There are no conversations yet: Ctrl+Shift+T starts one</source>
        <translation>还没有对话：按 Ctrl+Shift+T 新建一个</translation>
    </message>
    <message>
        <source>Rows are already in session and turn order</source>
        <translation>行已按会话和轮次排序</translation>
    </message>
    <message>
        <source>Turns are already numbered 1, 2, 3 … in every conversation</source>
        <translation>每个对话的轮次已编号为 1、2、3 …</translation>
    </message>
    <message>
        <source>Add column</source>
        <translation>添加列</translation>
    </message>
    <message>
        <source>Header of the new column:</source>
        <translation>新列的表头：</translation>
    </message>
    <message>
        <source>Rename column</source>
        <translation>重命名列</translation>
    </message>
    <message>
        <source>New header for “{header}”:</source>
        <translation>“{header}”的新表头：</translation>
    </message>
    <message>
        <source>No automatic fix for this one</source>
        <translation>此问题没有自动修复</translation>
    </message>
    <message>
        <source>Repaired the tool calls</source>
        <translation>已修复工具调用</translation>
    </message>
    <message>
        <source>{said}; {guessed}</source>
        <translation>{said}；{guessed}</translation>
    </message>
    <message>
        <source>an empty “arguments” object was added where a call in row {rows} named none: check that it takes no arguments</source>
        <translation>第 {rows} 行中有调用未给出参数，已为其添加空的“arguments”对象：请确认它确实不需要参数</translation>
    </message>
    <message>
        <source>an empty “arguments” object was added where calls in rows {rows} named none: check that they take no arguments</source>
        <translation>第 {rows} 行中有调用未给出参数，已为其添加空的“arguments”对象：请确认它们确实不需要参数</translation>
    </message>
    <message>
        <source>Fixed the one {rule} issue</source>
        <translation>已修复这 1 个 {rule} 问题</translation>
    </message>
    <message>
        <source>Fixed all {n} {rule} issues</source>
        <translation>已修复全部 {n} 个 {rule} 问题</translation>
    </message>
    <message>
        <source> (row {rows})</source>
        <translation>（第 {rows} 行）</translation>
    </message>
    <message>
        <source> (rows {rows})</source>
        <translation>（第 {rows} 行）</translation>
    </message>
    <message>
        <source>its tool calls are too damaged to repair automatically</source>
        <translation>其工具调用损坏过重，无法自动修复</translation>
    </message>
    <message>
        <source>no automatic fix applies to it</source>
        <translation>没有适用的自动修复</translation>
    </message>
    <message>
        <source>Fixed {fixed} of {n} {rule} issues; 1 left{where}: {why}, edit it by hand</source>
        <translation>已修复 {n} 个 {rule} 问题中的 {fixed} 个；剩余 1 个{where}：{why}，请手动编辑</translation>
    </message>
    <message>
        <source>their tool calls are too damaged to repair automatically</source>
        <translation>其工具调用损坏过重，无法自动修复</translation>
    </message>
    <message>
        <source>no automatic fix applies to them</source>
        <translation>没有适用的自动修复</translation>
    </message>
    <message>
        <source>Fixed {fixed} of {n} {rule} issues; {left} left{where}: {why}, edit them by hand</source>
        <translation>已修复 {n} 个 {rule} 问题中的 {fixed} 个；剩余 {left} 个{where}：{why}，请手动编辑</translation>
    </message>
    <message>
        <source>Which column holds the questions?</source>
        <translation>哪一列是问题？</translation>
    </message>
    <message>
        <source>Column:</source>
        <translation>列：</translation>
    </message>
    <message>
        <source>No issues in the rows shown</source>
        <translation>显示的行中没有检查项</translation>
    </message>
</context>
<context>
    <name>Progress</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
</context>
<context>
    <name>Recovery</name>
    <message>
        <source>Cannot keep a recovery copy of the unsaved changes: {reason}</source>
        <translation>无法写入未保存更改的恢复副本：{reason}</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Cannot restore the unsaved changes</source>
        <translation>无法恢复未保存的更改</translation>
    </message>
    <message>
        <source>Restored the unsaved changes to {name}; save to keep them</source>
        <translation>已恢复 {name} 的未保存更改；请保存以保留这些更改</translation>
    </message>
</context>
<context>
    <name>SaveChecks</name>
    <message>
        <source>the workbook&apos;s other sheets: {names}</source>
        <translation>工作簿中的其他工作表：{names}</translation>
    </message>
    <message>
        <source>the earlier turns of agent traces in rows that joined a conversation as a later turn (their history becomes the conversation&apos;s): rows {rows}</source>
        <translation>作为后续轮次加入对话的行中，智能体轨迹的前几轮（其历史将变为该对话的历史）：第 {rows} 行</translation>
    </message>
    <message>
        <source>what SDK cases hold that a table cannot show: agent traces, rubrics, images … (cases with any: {n:,})</source>
        <translation>SDK 用例中表格无法显示的内容：智能体轨迹、评分细则、图片……（含有这些内容的用例：{n:,}）</translation>
    </message>
    <message>
        <source>turns ordered and numbered 1, 2, 3 … as SDK JSON stores them (Undo shows them as typed)</source>
        <translation>轮次已按 SDK JSON 的存储方式排序并编号为 1、2、3……（撤销可恢复为输入时的样子）</translation>
    </message>
    <message>
        <source>{n:,} cells cannot be stored in a workbook (shorten them, or save as .csv or .json); the first: {reason}</source>
        <translation>{n:,} 个单元格无法存入工作簿（请缩短它们，或另存为 .csv 或 .json）；第一个：{reason}</translation>
    </message>
    <message>
        <source>Add &apos; before formulas</source>
        <translation>在公式前加 &apos;</translation>
    </message>
</context>
<context>
    <name>Severity</name>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>提示</translation>
    </message>
</context>
<context>
    <name>Targets</name>
    <message>
        <source>ground-truth — hosted evaluation service (.csv / .xlsx)</source>
        <translation>ground-truth — 托管评测服务（.csv / .xlsx）</translation>
    </message>
    <message>
        <source>evaluation-set — agent platform upload (.xlsx, limits)</source>
        <translation>evaluation-set — 智能体平台上传（.xlsx，有限制）</translation>
    </message>
    <message>
        <source>sdk — Evaluation SDK JSON</source>
        <translation>sdk — 评测 SDK JSON</translation>
    </message>
    <message>
        <source>sdk-flat — Evaluation SDK flat table (.jsonl / .csv)</source>
        <translation>sdk-flat — 评估 SDK 扁平表格 (.jsonl / .csv)</translation>
    </message>
    <message>
        <source>azure-foundry — Azure AI Foundry evaluation (.jsonl / .csv)</source>
        <translation>azure-foundry — Azure AI Foundry 评估 (.jsonl / .csv)</translation>
    </message>
    <message>
        <source>bedrock — Amazon Bedrock model evaluation (.jsonl, ≤ 1,000 prompts)</source>
        <translation>bedrock — Amazon Bedrock 模型评估 (.jsonl，≤ 1,000 条提示)</translation>
    </message>
    <message>
        <source>langsmith — LangSmith dataset (.jsonl / .csv)</source>
        <translation>langsmith — LangSmith 数据集 (.jsonl / .csv)</translation>
    </message>
    <message>
        <source>promptfoo — promptfoo test cases (.csv)</source>
        <translation>promptfoo — promptfoo 测试用例 (.csv)</translation>
    </message>
</context>
<context>
    <name>UploadPreview</name>
    <message>
        <source>conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>no session id: a conversation of one</source>
        <translation>无会话 ID：只有一轮的对话</translation>
    </message>
    <message>
        <source>single-turn case</source>
        <translation>单轮用例</translation>
    </message>
    <message>
        <source>accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <source>reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示（prompt）</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>Turns</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Upload Preview — {target}</source>
        <translation>上传预览 — {target}</translation>
    </message>
    <message>
        <source>Upload Preview</source>
        <translation>上传预览</translation>
    </message>
    <message>
        <source>No file open</source>
        <translation>未打开文件</translation>
    </message>
    <message>
        <source>{ok:,} accepted, {bad:,} rejected</source>
        <translation>接受 {ok:,} 个，拒绝 {bad:,} 个</translation>
    </message>
    <message>
        <source>The import refuses the whole file:</source>
        <translation>导入会拒绝整个文件：</translation>
    </message>
    <message>
        <source>One record per row, as the file holds it (below the case).</source>
        <translation>每行一条记录，与文件中的内容相同（见用例下方）。</translation>
    </message>
    <message>
        <source>{target} evaluates every row on its own: a conversation&apos;s turns are sent as separate records.</source>
        <translation>{target} 单独评估每一行：会话的各轮作为独立的记录发送。</translation>
    </message>
    <message>
        <source>One case per row. Turn k of a conversation is sent with turns 1 … k-1 as its history; a row with no session id is a case of its own.</source>
        <translation>每行一个用例。对话的第 k 轮发送时带有第 1 … k-1 轮作为历史；没有会话 ID 的行是独立的用例。</translation>
    </message>
    <message>
        <source>No column is read as a session id: every row is a single-turn case.</source>
        <translation>没有任何列被读作会话 ID：每一行都是单轮用例。</translation>
    </message>
    <message>
        <source>Conversations are replayed turn by turn in turn order. A row with an empty {header} is a conversation of one turn (a single-turn case): {n:,} here.</source>
        <translation>对话按轮次顺序逐轮回放。{header} 为空的行是只有一轮的对话（即单轮用例）：此处共 {n:,} 行。</translation>
    </message>
    <message>
        <source>Conversation {name}: {n} turns, in the order replayed</source>
        <translation>对话 {name}：{n} 轮，按回放顺序</translation>
    </message>
    <message>
        <source>Turn {n} of conversation {name}</source>
        <translation>对话 {name} 的第 {n} 轮</translation>
    </message>
    <message>
        <source>Turn {n}</source>
        <translation>第 {n} 轮</translation>
    </message>
    <message>
        <source>turn cell {value}</source>
        <translation>轮次单元格 {value}</translation>
    </message>
    <message>
        <source>row {n}</source>
        <translation>第 {n} 行</translation>
    </message>
    <message>
        <source>History sent before the prompt:</source>
        <translation>在提示之前发送的历史：</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考答案</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>答案</translation>
    </message>
    <message>
        <source>Expected calls</source>
        <translation>预期调用</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>For &amp;target:</source>
        <translation>目标(&amp;T)：</translation>
    </message>
    <message>
        <source>The target checked against (the same as the window&apos;s)</source>
        <translation>检查所依据的目标（与主窗口相同）</translation>
    </message>
    <message>
        <source>Cases as the target lists them</source>
        <translation>按目标列出顺序排列的用例</translation>
    </message>
    <message>
        <source>The selected case</source>
        <translation>所选用例</translation>
    </message>
    <message>
        <source>The selected case as the file holds it</source>
        <translation>所选用例在文件中的内容</translation>
    </message>
</context>
</TS>
