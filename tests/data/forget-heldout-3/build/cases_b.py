"""r07-r12. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, text, image, numbered, edited, created,
                     TODO_OK, todos, command, summary_20, summary_21, summary_short)

HW = '/Users/lucia/proyectos/horno-web'
TH = '/home/ines/phd/thesis'
GC = '/Users/oskar/dev/GrainCloud'
MU = '/home/claire/notebooks/municipales'
GB = '/Users/tunde/Sites/gradebook'
VW = '/home/yara/contracts/vestwell'


# --------------------------------------------------------------------------------------------
def r07():
    c = Case('r07-horno-web-envios', 'panaderia', '2.1', seed=5307, pre_tokens=167455, start='2026-01-26T09:02:00')
    t1 = ('necesito que el checkout calcule el envío según el código postal: Madrid capital (280xx) gratis a partir de 25€, resto de '
          'la península 4,90€, y a Baleares y Canarias de momento no enviamos')
    c.user('T1', t1, lab('instruction', 'shipping by postcode: Madrid city 280xx free from 25 EUR, rest of mainland 4.90 EUR, no shipping to Balearics/Canaries',
                         t1, 'in_summary', 'paraphrase', ['form:paraphrase', 'language:es', 'translated', 'numeric'],
                         S('free within the city of Madrid (postcodes 280xx) for orders of €25 or more, a flat €4.90 for the rest of mainland Spain, and no delivery to the Balearic or Canary Islands for now'),
                         values=[{'value': '25€', 'status': 'in_summary', 'found_as': '€25'},
                                 {'value': '4,90€', 'status': 'in_summary', 'found_as': '€4.90'}]))
    c.tools([('Read', {'file_path': '%s/server/api/checkout/quote.post.ts' % HW}, numbered(
        "import { z } from 'zod'\n\nconst Body = z.object({ items: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })) })\n\n"
        "export default defineEventHandler(async (event) => {\n  const body = Body.parse(await readBody(event))\n"
        "  const subtotal = await priceItems(body.items)\n  return { subtotal, shipping: 0, total: subtotal }\n})")),
        ('Glob', {'pattern': 'components/checkout/*.vue'}, '%s/components/checkout/AddressForm.vue\n%s/components/checkout/Summary.vue' % (HW, HW))],
        text="Looking at the quote endpoint and the checkout components.")
    t2 = 'los textos de la UI siempre en español, pero code, comments y commits in english please'
    c.user('T2', t2, lab('instruction', 'UI copy in Spanish; code, comments and commit messages in English', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:mixed', 'translated'],
                         S('All customer-facing copy is written in Spanish, while identifiers, code comments and commit messages are in English')))
    c.tool('Write', {'file_path': '%s/server/utils/shipping.ts' % HW, 'content':
                     "export type ShippingQuote = { cents: number } | { unavailable: true }\n\n"
                     "const ISLANDS = /^(07|35|38)/\n\nexport function quoteShipping(postcode: string, subtotalCents: number): ShippingQuote {\n"
                     "  if (ISLANDS.test(postcode)) return { unavailable: true }\n"
                     "  if (postcode.startsWith('280') && subtotalCents >= 2500) return { cents: 0 }\n  return { cents: 490 }\n}\n"},
           created('%s/server/utils/shipping.ts' % HW),
           text="`quoteShipping()` in a server util: islands (07 Baleares, 35/38 Canarias) unavailable, 280xx free from 2500 cents, otherwise 490.")
    c.user('C3', 'vale', lab('chatter', 'chatter: vale', 'vale', 'lost', 'omitted', ['chatter', 'language:es']))
    t4 = 'no toques el componente CartDrawer, lo está rehaciendo Paco en otra rama y luego son todo conflictos'
    c.user('T4', t4, lab('instruction', 'do not touch the CartDrawer component (Paco is rewriting it on another branch)', t4, 'lost', 'omitted',
                         ['form:omitted', 'language:es', 'after:assistant-topic'],
                         distinct=['cartdrawer', 'cart drawer', 'paco', 'otra rama', 'no toques']))
    c.say("Entendido.")
    c.say("Which hours should the in-store pickup option show? I'll offer it as a zero-cost alternative to delivery.")
    f5 = 'la recogida en tienda es de 8:00 a 14:00, de lunes a sábado'
    c.user('F5', f5, lab('user_fact', 'in-store pickup 8:00-14:00, Monday to Saturday', f5, 'in_summary', 'form:08:00–14:00, Monday to Saturday',
                         ['fact', 'language:es', 'translated'], S('08:00–14:00, Monday to Saturday'),
                         values=[{'value': '8:00 a 14:00', 'status': 'in_summary', 'found_as': '08:00–14:00'}]))
    t6 = 'los precios siempre con IVA incluido, nunca le enseñes al cliente un precio sin IVA'
    c.user('T6', t6, lab('instruction', 'prices always shown VAT-inclusive; never show a price without IVA', t6, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:es', 'negation-moved', 'translated'],
                         S('Every price a customer sees, shipping included, is VAT-inclusive (IVA)')))
    c.say("All amounts in the catalogue are stored gross already, so the shipping line will be gross too (4,90 € incl. IVA).")
    t7 = 'y el botón de pagar desactivado hasta que marquen la casilla de la política de privacidad'
    c.user('T7', t7, lab('instruction', 'pay button disabled until the privacy-policy checkbox is ticked', t7, 'repeated_later', 'omitted',
                         ['form:omitted', 'language:es', 'repeat:paraphrase'],
                         A('U1', 'sin marcar la casilla de privacidad no se puede pagar'), repeated_after=['paraphrase']))
    c.say("De acuerdo.")
    c.user('C8', 'genial, gracias!', lab('chatter', 'chatter: genial, gracias!', 'genial, gracias!', 'in_summary', 'verbatim',
                                         ['chatter', 'language:es'], S('"genial, gracias!"')))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Shipping cost in the checkout depends on the postcode: free within the city of Madrid (postcodes 280xx) for orders of €25 or more, a flat €4.90 for the rest of mainland Spain, and no delivery to the Balearic or Canary Islands for now',
            'All customer-facing copy is written in Spanish, while identifiers, code comments and commit messages are in English',
            'Every price a customer sees, shipping included, is VAT-inclusive (IVA)',
            'Offer in-store pickup as a free alternative; pickup hours 08:00–14:00, Monday to Saturday',
        ],
        'Key Technical Concepts': ['Nuxt 3 server routes (`defineEventHandler`), zod validation', 'Amounts in integer cents, stored gross',
                                   'Island postcodes: 07 (Baleares), 35 and 38 (Canarias)'],
        'Files and Code Sections': [
            '`%s/server/api/checkout/quote.post.ts`: returns `subtotal`, `shipping` (currently 0), `total`' % HW,
            '`%s/server/utils/shipping.ts` (new): `quoteShipping(postcode, subtotalCents)`' % HW,
            '`%s/components/checkout/Summary.vue`, `AddressForm.vue`: to show the shipping line and the unavailable message' % HW,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Postcode rules are kept in one server-side function so the client cannot compute a different price.',
        'All user messages': [
            'Asked (in Spanish) for shipping to be computed from the postcode: Madrid city 280xx free from €25, rest of the mainland €4.90, islands not served for now',
            'UI copy always in Spanish; code, comments and commits in English',
            'Gave the pickup hours: 08:00–14:00, Monday to Saturday',
            'Prices always including IVA',
            '"genial, gracias!"',
        ],
        'Pending Tasks': ['Call `quoteShipping` from the quote endpoint', 'Shipping line and "no enviamos a islas" message in the checkout UI', 'Pickup option'],
        'Current Work': '`quoteShipping()` written; wiring it into the endpoint and the UI.',
        'Optional Next Step': 'Use `quoteShipping()` in `quote.post.ts` and render the result in `Summary.vue`.',
    }))
    c.tool('Edit', {'file_path': '%s/server/api/checkout/quote.post.ts' % HW, 'old_string': '  return { subtotal, shipping: 0, total: subtotal }',
                    'new_string': '  const shipping = quoteShipping(body.postcode, subtotal)\n  if (\'unavailable\' in shipping) return { subtotal, shipping: null, total: null }\n'
                                  '  return { subtotal, shipping: shipping.cents, total: subtotal + shipping.cents }'},
           edited('%s/server/api/checkout/quote.post.ts' % HW, '  const shipping = quoteShipping(body.postcode, subtotal)', 8),
           text="Wiring the quote into the endpoint.")
    c.user('U1', 'acuérdate: sin marcar la casilla de privacidad no se puede pagar, el botón tiene que estar desactivado',
           after=dict(repeat_of='T7', mode='paraphrase'))
    c.say("Claro. I'll bind the pay button's `disabled` to the privacy checkbox in `Summary.vue`, and while I'm there I'll also show "
          "the shipping estimate in the slide-out basket next to the subtotal, so customers see it before they reach the checkout.")
    return c.write({'situations': ['Spanish request paraphrased in an English summary (25€ -> €25, 4,90€ -> €4.90)',
                                   'mixed Spanish/English rule paraphrased', 'Spanish chatter omitted / quoted',
                                   'Spanish "do not touch component X" lost; after the boundary the assistant plans to edit that component (described, not named)',
                                   'fact translated (8:00 a 14:00 -> 08:00–14:00, Monday to Saturday)',
                                   'negation moved in translation ("nunca ... sin IVA" -> "is VAT-inclusive")',
                                   'Spanish rule omitted, paraphrased in Spanish by the user after the boundary']})


# --------------------------------------------------------------------------------------------
def r08():
    c = Case('r08-thesis-ch4-tables', 'thesis', '2.0', seed=5308, pre_tokens=152660, start='2025-09-08T16:25:00')
    t1 = 'turn the tables in section 4.2 into booktabs, no vertical rules, and siunitx S columns so the decimals line up'
    c.user('T1', [ide_opened('%s/chapters/ch4_results.tex' % TH), text(t1)],
           lab('instruction', 'section 4.2 tables: booktabs, no vertical rules, siunitx S columns aligned on decimals', t1, 'in_summary', 'verbatim',
               ['form:verbatim', 'wrapper:ide_opened_file'], S('"' + t1 + '"'), wrapper='ide_opened_file'))
    c.tools([('Read', {'file_path': '%s/chapters/ch4_results.tex' % TH, 'offset': 40, 'limit': 18}, numbered(
        '\\section{Calibration results}\\label{sec:calib}\n\n\\begin{table}[ht]\n  \\centering\n  \\begin{tabular}{|l|c|c|c|}\n    \\hline\n'
        '    Well & RMSE (m) & NSE & Bias (m) \\\\ \\hline\n    W-03 & 0.41 & 0.87 & -0.05 \\\\\n    W-11 & 1.2 & 0.64 & 0.31 \\\\\n'
        '    W-17 & 0.093 & 0.91 & -0.012 \\\\ \\hline\n  \\end{tabular}\n  \\caption{Calibration statistics per observation well.}\n\\end{table}', 40)),
        ('Grep', {'pattern': 'usepackage', 'path': '%s/thesis.tex' % TH, 'output_mode': 'content'},
         '\\usepackage{amsmath}\n\\usepackage{graphicx}\n\\usepackage[backend=biber,style=authoryear]{biblatex}\n\\usepackage{hyperref}')],
        text="Reading the section and the preamble.")
    c.tool('Edit', {'file_path': '%s/thesis.tex' % TH, 'old_string': '\\usepackage{graphicx}\n',
                    'new_string': '\\usepackage{graphicx}\n\\usepackage{booktabs}\n\\usepackage{siunitx}\n'},
           edited('%s/thesis.tex' % TH, '\\usepackage{graphicx}\n\\usepackage{booktabs}\n\\usepackage{siunitx}', 6),
           text="Adding `booktabs` and `siunitx` to the preamble.")
    t2 = ("my supervisor is picky about two things: british spelling throughout (-ise, colour, modelling) and never 'we' in the "
          "results chapter, it's a single author thesis")
    c.user('T2', t2, lab('instruction', "British spelling throughout (-ise, colour, modelling); never 'we' in the results chapter", t2, 'lost',
                         'omitted', ['form:omitted', 'summary:mentions-without-content'],
                         distinct=['british', '-ise', 'colour', 'modelling', 'single author', "'we'", 'spelling', 'first person']))
    c.say("Noted, I'll keep that in mind when I touch the prose around the tables.")
    c.user('C3', 'ok', lab('chatter', 'chatter: ok', 'ok', 'lost', 'omitted', ['chatter']))
    c.tool('Edit', {'file_path': '%s/chapters/ch4_results.tex' % TH, 'old_string': '  \\begin{tabular}{|l|c|c|c|}\n    \\hline\n',
                    'new_string': '  \\begin{tabular}{l S[table-format=1.3] S[table-format=1.2] S[table-format=-1.3]}\n    \\toprule\n'},
           edited('%s/chapters/ch4_results.tex' % TH, '  \\begin{tabular}{l S[table-format=1.3] S[table-format=1.2] S[table-format=-1.3]}\n    \\toprule', 44),
           text="Converting the first table: `l` + three `S` columns, `\\toprule/\\midrule/\\bottomrule`, no `|`.")
    t4 = 'figures: vector pdf exported from matplotlib, never png, and always width=\\linewidth in the includegraphics'
    c.user('T4', t4, lab('instruction', 'figures as vector PDF from matplotlib, never PNG; always width=\\linewidth', t4, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True, lost_part='always width=\\linewidth in \\includegraphics',
                         distinct=['linewidth']))
    c.say("Got it, I'll export the residual plots as PDF from the plotting script.")
    f5 = 'bib is refs/thesis.bib btw, biber not bibtex'
    c.user('F5', f5, lab('user_fact', 'bibliography file refs/thesis.bib (biber)', f5, 'in_summary', 'form:refs/thesis.bib', ['fact', 'path'],
                         S('`refs/thesis.bib` (processed with biber)'),
                         values=[{'value': 'refs/thesis.bib', 'status': 'in_summary', 'found_as': 'refs/thesis.bib'}]))
    t6 = "dont touch chapters 1 to 3 at all, they're signed off by the committee"
    c.user('T6', t6, lab('instruction', 'do not edit chapters 1-3 (signed off by the committee)', t6, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:in_tool_result'],
                         A('R1', 'ch1-ch3: signed off by committee 2025-07-14. FROZEN, do not edit.'), repeated_after=['in_tool_result']))
    c.say("Understood. Remaining tables in 4.2 next, then the figures.")
    c.user('C7', 'looks good!', lab('chatter', 'chatter: looks good!', 'looks good!', 'in_summary', 'verbatim', ['chatter'], S('"looks good!"')))
    c.compact(summary_20(
        """Chronologically:

1. With `chapters/ch4_results.tex` open, the user asked for the section 4.2 tables to use booktabs and siunitx.
2. I read the section and preamble, added `booktabs` and `siunitx`, and converted the first table.
3. The user passed on two of their supervisor's style preferences for the chapter.
4. The user asked for figures as vector PDFs from matplotlib, gave the bibliography file, and made a remark about the earlier chapters.
5. The user approved the table conversion so far.""",
        {
            'Primary Request and Intent': [
                'Convert the tables in section 4.2 of the results chapter to booktabs with siunitx `S` columns and no vertical rules',
                'Figures are to be vector PDFs exported from matplotlib, not raster images',
                "Follow the supervisor's two style preferences the user relayed",
            ],
            'Key Technical Concepts': ['booktabs rules (`\\toprule`, `\\midrule`, `\\bottomrule`)', 'siunitx `S[table-format=...]` decimal alignment',
                                       'biblatex (authoryear) with `refs/thesis.bib` (processed with biber)'],
            'Files and Code Sections': [
                '`%s/thesis.tex`: added `\\usepackage{booktabs}` and `\\usepackage{siunitx}`' % TH,
                '`%s/chapters/ch4_results.tex`: first table (calibration statistics per well) converted to `l` + three `S` columns' % TH,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'Chose `table-format` per column from the widest value so negative biases align with positive ones.',
            'All user messages': [
                '"turn the tables in section 4.2 into booktabs, no vertical rules, and siunitx S columns so the decimals line up"',
                "Relayed two of the supervisor's preferences",
                'Figures as vector PDF from matplotlib, not PNG',
                'Bibliography is `refs/thesis.bib`, biber',
                'A remark about the earlier chapters',
                '"looks good!"',
            ],
            'Pending Tasks': ['Convert the remaining tables in 4.2', 'Export residual plots as PDF and include them'],
            'Current Work': 'First table of 4.2 converted; continuing with the others.',
            'Optional Next Step': 'Convert the remaining 4.2 tables, then add the residual figure.',
        }))
    c.tool('Read', {'file_path': '%s/STATUS.md' % TH}, numbered(
        '# Thesis status\n\n- ch1-ch3: signed off by committee 2025-07-14. FROZEN, do not edit.\n- ch4: results, in progress\n'
        '- ch5: discussion, outline only\n- submission target: 2025-11-28'), text="Checking the status file before editing further.", anchor='R1')
    c.tool('Edit', {'file_path': '%s/chapters/ch4_results.tex' % TH, 'old_string': '% FIG: residuals\n',
                    'new_string': '\\begin{figure}[ht]\n  \\centering\n  \\includegraphics[scale=0.9]{figures/head_residuals.pdf}\n'
                                  '  \\caption{Simulated minus observed heads at the calibration wells.}\\label{fig:residuals}\n\\end{figure}\n'},
           edited('%s/chapters/ch4_results.tex' % TH, '\\begin{figure}[ht]\n  \\centering\n  \\includegraphics[scale=0.9]{figures/head_residuals.pdf}', 71),
           text="Adding the residual figure (PDF) at 90% scale.")
    c.say("Figure placed. Remaining: two tables in 4.2.")
    return c.write({'situations': ['wrapper:ide_opened_file request quoted verbatim',
                                   "supervisor's style rules lost: summary only says two preferences were relayed (mentions without content)",
                                   'partial (vector PDF kept, width=\\linewidth dropped); the assistant uses scale=0.9 after the boundary',
                                   'path fact kept', 'chapters 1-3 rule omitted ("a remark about the earlier chapters"), recorded in STATUS.md read after the boundary',
                                   'chatter quoted / omitted']})


# --------------------------------------------------------------------------------------------
def r09():
    c = Case('r09-graincloud-knobs', 'juce', 'short', seed=5309, pre_tokens=140877, start='2026-02-21T22:10:00')
    t1 = ('[Image #1] knobs should look like this: flat arc, value ring in the accent colour, label under the knob not above. do it in a '
          'LookAndFeel subclass, dont subclass Slider')
    c.user('T1', [image((30, 34, 44)), text(t1)],
           lab('instruction', 'knobs per reference image: flat arc, value ring in accent colour, label below; via LookAndFeel, not a Slider subclass', t1,
               'in_summary', 'paraphrase', ['form:paraphrase', 'image', 'negation-moved'],
               S('a flat arc with the current value drawn as a ring in the accent colour and the caption placed below each control rather than above it, implemented through a custom LookAndFeel instead of subclassing the slider class')))
    c.tools([('Read', {'file_path': '%s/Source/PluginEditor.cpp' % GC}, numbered(
        '#include "PluginEditor.h"\n\nGrainCloudEditor::GrainCloudEditor(GrainCloudProcessor& p)\n    : AudioProcessorEditor(&p), proc(p)\n{\n'
        '    for (auto* k : { &density, &size, &spread, &mix })\n    {\n        k->setSliderStyle(juce::Slider::RotaryHorizontalVerticalDrag);\n'
        '        addAndMakeVisible(*k);\n    }\n    setSize(800, 500);\n}')),
        ('Grep', {'pattern': 'LookAndFeel', 'path': '%s/Source' % GC, 'output_mode': 'files_with_matches'}, 'No files found')],
        text="Looking at the editor; no custom LookAndFeel exists yet.")
    c.tool('Write', {'file_path': '%s/Source/ui/GrainLookAndFeel.h' % GC, 'content':
                     '#pragma once\n#include <juce_gui_basics/juce_gui_basics.h>\n\nclass GrainLookAndFeel : public juce::LookAndFeel_V4\n{\npublic:\n'
                     '    void drawRotarySlider(juce::Graphics&, int x, int y, int w, int h, float pos, float start, float end, juce::Slider&) override;\n'
                     '    juce::Label* createSliderTextBox(juce::Slider&) override;\n};\n'},
           created('%s/Source/ui/GrainLookAndFeel.h' % GC), text="Declaring `GrainLookAndFeel` with `drawRotarySlider` overridden.")
    f2 = 'fyi we only support 44.1 and 48k'
    c.user('F2', f2, lab('user_fact', 'supported sample rates 44.1 kHz and 48 kHz', f2, 'in_summary', 'form:44.1 kHz and 48 kHz', ['fact', 'numeric'],
                         S('44.1 kHz and 48 kHz'),
                         values=[{'value': '44.1', 'status': 'in_summary', 'found_as': '44.1 kHz'},
                                 {'value': '48k', 'status': 'in_summary', 'found_as': '48 kHz'}]))
    c.say("Good to know; the grain buffers can then be sized for 48 kHz at most.")
    code = ('void GrainEngine::setDensity(float grainsPerSecond)\n{\n    density = grainsPerSecond;\n'
            '    samplesBetweenGrains = (int) (sampleRate / density);\n}')
    t3 = 'this density param jumps audibly when you automate it, smooth it over 20ms with a SmoothedValue'
    c.user('T3', [ide_selection('%s/Source/dsp/GrainEngine.cpp' % GC, 88, 92, code), text(t3)],
           lab('instruction', 'density parameter: smooth over 20 ms with juce::SmoothedValue (audible jumps under automation)', t3, 'lost', 'omitted',
               ['form:omitted', 'wrapper:ide_selection', 'after:assistant-topic'],
               distinct=['smoothedvalue', '20ms', '20 ms', 'smooth', 'jumps', 'zipper'], wrapper='ide_selection'))
    c.say("I see it: `samplesBetweenGrains` changes in one step. I'll come back to that after the knobs.")
    c.user('C4', 'yesss', lab('chatter', 'chatter: yesss', 'yesss', 'lost', 'omitted', ['chatter']))
    t5 = 'keep the window resizable but lock the aspect ratio to 16:10, min width 720'
    c.user('T5', t5, lab('instruction', 'editor resizable, aspect ratio locked to 16:10, min width 720', t5, 'lost', 'partial',
                         ['form:partial', 'partial', 'numeric'], partial=True, lost_part='aspect ratio locked to 16:10',
                         distinct=['16:10', 'aspect', 'ratio', 'proportion'],
                         values=[{'value': '720', 'status': 'in_summary', 'found_as': '720 px'},
                                 {'value': '16:10', 'status': 'lost', 'found_as': None}]))
    c.say("I'll call `setResizable(true, true)` and set the limits in the constructor.")
    t6 = "and please dont reformat files you arent changing, clang-format noise makes my diffs unreadable"
    c.user('T6', t6, lab('instruction', 'do not reformat files that are not otherwise changed (clang-format noise)', t6, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:paraphrase'],
                         A('U1', "no drive-by reformatting of files you're not otherwise touching"), repeated_after=['paraphrase']))
    c.say("Sure.")
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Restyle the rotary controls after the reference picture the user attached: a flat arc with the current value drawn as a ring in the accent colour and the caption placed below each control rather than above it, implemented through a custom LookAndFeel instead of subclassing the slider class',
            'The editor window remains resizable with a minimum width of 720 px',
        ],
        'Key Technical Concepts': ['JUCE `LookAndFeel_V4::drawRotarySlider`, `createSliderTextBox`', 'Supported sample rates: 44.1 kHz and 48 kHz only',
                                   '`AudioProcessorEditor::setResizable`, `setResizeLimits`'],
        'Files and Code Sections': [
            '`%s/Source/PluginEditor.cpp`: four rotary sliders (density, size, spread, mix), `setSize(800, 500)`' % GC,
            '`%s/Source/ui/GrainLookAndFeel.h` (new): `GrainLookAndFeel : LookAndFeel_V4`' % GC,
            '`%s/Source/dsp/GrainEngine.cpp`: `setDensity()` recomputes `samplesBetweenGrains` directly' % GC,
        ],
        'Problem Solving': 'Grain buffers can be sized for 48 kHz at most.',
        'Pending Tasks': ['Implement `GrainLookAndFeel.cpp`', 'Resizable editor with limits', 'Revisit `GrainEngine::setDensity()`'],
        'Current Work': 'Header for the LookAndFeel written; the drawing code is next.',
        'Optional Next Step': 'Write `drawRotarySlider` (arc + value ring) and place the text box below the knob.',
    }))
    c.tool('Write', {'file_path': '%s/Source/ui/GrainLookAndFeel.cpp' % GC, 'content':
                     '#include "GrainLookAndFeel.h"\n\nvoid GrainLookAndFeel::drawRotarySlider(juce::Graphics& g, int x, int y, int w, int h,\n'
                     '                                        float pos, float start, float end, juce::Slider& s)\n{\n'
                     '    auto r = juce::Rectangle<int>(x, y, w, h).toFloat().reduced(6.0f);\n    auto angle = start + pos * (end - start);\n'
                     '    juce::Path track, value;\n    track.addCentredArc(r.getCentreX(), r.getCentreY(), r.getWidth() / 2, r.getHeight() / 2, 0, start, end, true);\n'
                     '    value.addCentredArc(r.getCentreX(), r.getCentreY(), r.getWidth() / 2, r.getHeight() / 2, 0, start, angle, true);\n'
                     '    g.setColour(findColour(juce::Slider::rotarySliderOutlineColourId));\n    g.strokePath(track, juce::PathStrokeType(3.0f));\n'
                     '    g.setColour(findColour(juce::Slider::rotarySliderFillColourId));\n    g.strokePath(value, juce::PathStrokeType(3.0f));\n}\n'},
           created('%s/Source/ui/GrainLookAndFeel.cpp' % GC), text="Drawing code: a flat track arc and the value ring on top in the fill colour.")
    c.user('U1', "again, no drive-by reformatting of files you're not otherwise touching pls", after=dict(repeat_of='T6', mode='paraphrase'))
    c.say("Understood, I'll only touch the files I change. Next, `GrainEngine::setDensity()`: I'll recompute the spacing once per block "
          "instead of on every call, which is cheaper.")
    return c.write({'situations': ['image request paraphrased ("dont subclass Slider" -> "instead of subclassing the slider class")',
                                   'fact with two rates (44.1 / 48k -> 44.1 kHz / 48 kHz)',
                                   'wrapper:ide_selection request lost; after the boundary the assistant revisits the same function without the rule',
                                   'partial (resizable + min width kept, 16:10 aspect dropped)',
                                   'instruction omitted, paraphrased by the user after the boundary', 'chatter omitted']})


# --------------------------------------------------------------------------------------------
def r10():
    c = Case('r10-municipales-scraper', 'elections', '2.0', seed=5310, pre_tokens=146333, start='2025-12-11T13:37:00')
    t1 = ("il faut scraper les résultats des municipales 2020 par commune sur le site du ministère, pour les 13 départements "
          "d'Occitanie, et sortir un CSV par département")
    c.user('T1', t1, lab('instruction', 'scrape 2020 municipal results per commune from the ministry site for the 13 Occitanie departements; one CSV per departement',
                         t1, 'in_summary', 'paraphrase', ['form:paraphrase', 'language:fr', 'translated', 'numbers-as-words'],
                         S("the 2020 municipal election results commune by commune from the Interior Ministry's results site for the thirteen départements of Occitanie, writing one CSV file per département"),
                         values=[{'value': '13', 'status': 'in_summary', 'found_as': 'thirteen'}]))
    c.say("D'accord. What's the base URL of the results pages you want me to start from?")
    f2 = "l'url de base c'est https://www.resultats-elections.interieur.gouv.fr/municipales2020/ (les pages départements sont en dessous)"
    c.user('F2', f2, lab('user_fact', 'base URL of the ministry results pages', f2, 'lost', 'omitted', ['fact', 'language:fr', 'form:omitted', 'url'],
                         distinct=['resultats-elections', 'interieur.gouv', 'municipales2020'],
                         values=[{'value': 'https://www.resultats-elections.interieur.gouv.fr/municipales2020/', 'status': 'lost', 'found_as': None}]))
    c.tools([('WebFetch', {'url': 'https://www.resultats-elections.interieur.gouv.fr/municipales2020/ensemble_geographique/76/index.html',
                           'prompt': 'List the département links and their URL pattern'},
              'The page lists 13 départements of Occitanie (09 Ariège, 11 Aude, 12 Aveyron, 30 Gard, 31 Haute-Garonne, 32 Gers, 34 Hérault, 46 Lot, '
              '48 Lozère, 65 Hautes-Pyrénées, 66 Pyrénées-Orientales, 81 Tarn, 82 Tarn-et-Garonne). Each links to a page of communes grouped by initial letter.')],
            text="Let me look at the region page to get the département URL pattern.")
    t3 = ('attention leur serveur est fragile: max 1 requête par seconde, and set a User-Agent with my email '
          'claire.dumas@midi-data.example so they can reach me if something goes wrong')
    c.user('T3', t3, lab('instruction', 'max 1 request/second; User-Agent carrying the user\'s e-mail address', t3, 'lost', 'partial',
                         ['form:partial', 'partial', 'language:mixed'], partial=True,
                         lost_part="a User-Agent header with the user's e-mail (claire.dumas@midi-data.example)",
                         distinct=['user-agent', 'user agent', 'claire.dumas', 'midi-data', 'email', 'e-mail', 'reach me'],
                         values=[{'value': '1 requête par seconde', 'status': 'in_summary', 'found_as': 'one request per second'},
                                 {'value': 'claire.dumas@midi-data.example', 'status': 'lost', 'found_as': None}]))
    c.say("OK: I'll put a `time.sleep` based throttle in the fetch helper.")
    c.user('C4', 'super merci', lab('chatter', 'chatter: super merci', 'super merci', 'in_summary', 'verbatim', ['chatter', 'language:fr'], S('"super merci"')))
    c.tool('Write', {'file_path': '%s/scraper/fetch.py' % MU, 'content':
                     'import time\n\nimport requests\n\n_last = 0.0\nSESSION = requests.Session()\n\n\ndef get(url: str) -> str:\n'
                     '    global _last\n    wait = 1.0 - (time.monotonic() - _last)\n    if wait > 0:\n        time.sleep(wait)\n'
                     '    r = SESSION.get(url, timeout=30)\n    _last = time.monotonic()\n    r.raise_for_status()\n    return r.text\n'},
           created('%s/scraper/fetch.py' % MU), text="Fetch helper with a one-second throttle.")
    t5 = "keep the INSEE codes as strings!! sinon pandas vire le zéro de tête pour l'Ariège, l'Aude etc"
    c.user('T5', t5, lab('instruction', 'INSEE codes as strings (pandas would drop leading zeros)', t5, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:mixed', 'translated'],
                         S('INSEE commune codes must be read and written as text (`dtype=str`); converting them to numbers strips the leading zero of codes such as 09xxx')))
    c.say("Right, I'll pass `dtype={'code_insee': str}` everywhere and build codes by string concatenation.")
    t6 = 'et surtout ne commite pas les CSV, ils vont dans data/ qui est dans le .gitignore'
    c.user('T6', t6, lab('instruction', 'never commit the CSVs; they go in data/ which is git-ignored', t6, 'lost', 'omitted',
                         ['form:omitted', 'language:fr', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['gitignore', 'commite', 'ne commit', 'git-ignored']))
    c.say("Compris.")
    c.compact(summary_20(
        """In order:

1. The user (writing in French) asked for a scraper of the 2020 municipal results for Occitanie, one CSV per département.
2. I asked for the base URL and fetched the region page: 13 départements, each with communes grouped by initial letter.
3. The user warned that the server is fragile; I wrote `scraper/fetch.py` with a one-request-per-second throttle.
4. The user asked for INSEE codes to be kept as text, and added a note about the output files.""",
        {
            'Primary Request and Intent': [
                "Scrape the 2020 municipal election results commune by commune from the Interior Ministry's results site for the thirteen départements of Occitanie, writing one CSV file per département",
                'The results server is fragile: at most one request per second',
                'INSEE commune codes must be read and written as text (`dtype=str`); converting them to numbers strips the leading zero of codes such as 09xxx',
            ],
            'Key Technical Concepts': ['requests + a module-level throttle', 'pandas with explicit dtypes',
                                       'Départements 09, 11, 12, 30, 31, 32, 34, 46, 48, 65, 66, 81, 82'],
            'Files and Code Sections': ['`%s/scraper/fetch.py` (new): `get(url)` sleeps so that calls are at least 1 s apart' % MU],
            'Errors and fixes': ['None yet.'],
            'Problem Solving': 'Commune pages are grouped by initial letter, so each département needs an index pass before the commune pages.',
            'All user messages': [
                'Asked (in French) for the 2020 municipal results per commune for the 13 Occitanie départements, one CSV each',
                'Gave the base URL of the results site',
                'Warned that the server is fragile: max one request per second',
                '"super merci"',
                'Keep INSEE codes as strings, otherwise pandas drops the leading zero',
                'A note about where the CSV files go',
            ],
            'Pending Tasks': ['Département index parser', 'Commune page parser (lists, votes, seats)', 'CSV writer per département'],
            'Current Work': 'Fetch helper written; starting on the parsers.',
            'Optional Next Step': 'Write `scraper/parse.py` and run it on Hérault (34) as a first test.',
        }))
    c.tool('Write', {'file_path': '%s/scraper/parse.py' % MU, 'content':
                     'from bs4 import BeautifulSoup\nimport pandas as pd\n\n\ndef commune_rows(html: str, code_insee: str) -> list[dict]:\n'
                     '    soup = BeautifulSoup(html, "html.parser")\n    rows = []\n    for tr in soup.select("table.tableau-resultats-listes tbody tr"):\n'
                     '        tds = [td.get_text(strip=True) for td in tr.find_all("td")]\n'
                     '        rows.append({"code_insee": code_insee, "liste": tds[0], "voix": int(tds[1].replace(" ", ""))})\n    return rows\n'},
           created('%s/scraper/parse.py' % MU), text="Writing the commune page parser.")
    c.tool('Bash', {'command': 'python -m scraper.run --dep 34 && git add -f scraper/ data/34_herault.csv && git commit -qm "scraper: parse + Hérault output" && echo done',
                    'description': 'Run on Hérault and commit'},
           '34 Hérault: 342 communes, 1 request/s, 6m02s\ndone', text="Running Hérault as a test and committing the scraper together with its output so the notebook can load it.")
    c.say("Hérault works: 342 communes. Next I'll run the other twelve.")
    return c.write({'situations': ['French request paraphrased in an English summary (13 -> thirteen)',
                                   'URL fact lost: the list only says "gave the base URL"',
                                   'mixed French/English partial (rate limit kept, User-Agent with e-mail dropped)',
                                   'mixed-language rule kept in paraphrase', 'French chatter quoted in the user-message list',
                                   'French "never commit the CSVs" lost ("a note about where the CSV files go"); the assistant force-adds a CSV after the boundary']})


# --------------------------------------------------------------------------------------------
def r11():
    c = Case('r11-gradebook-report-cards', 'laravel', '2.1', seed=5311, pre_tokens=174902, start='2026-03-23T15:05:00')
    t1 = 'report cards as PDF, one per student per term, with the teacher comment and attendance %'
    c.user('T1', command('feature', t1),
           lab('instruction', 'PDF report card per student per term with teacher comment and attendance %', t1, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:command-args'],
               S("generate a PDF report card for every student for each term, showing the teacher's comment and the attendance rate"),
               wrapper='command-args'))
    c.user(None, [text('Implement the feature described below. Start by exploring the relevant code, propose a plan, then implement it '
                       'with tests.\n\nARGUMENTS: ' + t1)], meta=True, wait=(1, 2))
    c.tools([('Read', {'file_path': '%s/app/Models/Grade.php' % GB}, numbered(
        '<?php\n\nnamespace App\\Models;\n\nuse Illuminate\\Database\\Eloquent\\Model;\n\nclass Grade extends Model\n{\n'
        "    protected $fillable = ['student_id', 'subject_id', 'term_id', 'score'];\n}")),
        ('Bash', {'command': 'composer show | grep -i pdf', 'description': 'Check installed PDF packages'},
         'barryvdh/laravel-dompdf   v2.2.0  A DOMPDF Wrapper for Laravel')],
        text="Looking at the grade model and which PDF package is installed.")
    t2 = ("some background: last year the report cards went out with wrong grades because someone edited a grade after the PDFs "
          "were generated and nobody noticed. the deputy head was not happy. so the rule from now on: once a term is locked, grades "
          "for that term are read only for teachers, only the admin role can unlock, and every unlock gets written to the audit log "
          "with who and why.")
    c.user('T2', t2, lab('instruction', 'locked term: grades read-only for teachers; only admin can unlock; every unlock audited with who and why', t2,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'long-turn', 'paraphrase:vocab'],
                         S('After a term has been closed its marks become immutable for teaching staff; only administrators may reopen a term, and each reopening is recorded in the audit trail together with the acting user and a stated justification')))
    c.say("That fits a `locked_at` column on `terms` plus a policy. I'll add `TermPolicy::unlock` (admin only) and an `AuditLog::record()` call.")
    c.user('C3', '\U0001f44d', lab('chatter', 'chatter: 👍', '\U0001f44d', 'in_summary', 'paraphrase', ['chatter', 'form:paraphrase'], S('Thumbs-up')))
    c.tool('Write', {'file_path': '%s/database/migrations/2026_03_23_151200_add_locked_at_to_terms.php' % GB, 'content':
                     "<?php\n\nuse Illuminate\\Database\\Migrations\\Migration;\nuse Illuminate\\Database\\Schema\\Blueprint;\nuse Illuminate\\Support\\Facades\\Schema;\n\n"
                     "return new class extends Migration {\n    public function up(): void\n    {\n        Schema::table('terms', function (Blueprint $t) {\n"
                     "            $t->timestamp('locked_at')->nullable();\n        });\n    }\n};\n"},
           created('%s/database/migrations/2026_03_23_151200_add_locked_at_to_terms.php' % GB), text="Migration for `locked_at`.")
    f4 = 'autumn term is term_id 7 if you want to test against real data'
    c.user('F4', f4, lab('user_fact', 'autumn term is term_id 7', f4, 'in_summary', 'form:term 7 (autumn)', ['fact'], S('term 7 (autumn)'),
                         values=[{'value': '7', 'status': 'in_summary', 'found_as': 'term 7'}]))
    t5 = 'on the card grades show as letters A-F but we store the raw percentage, never store the letter, the boundaries change every year'
    c.user('T5', t5, lab('instruction', 'card shows letters A-F; store the raw percentage, never the letter (boundaries change yearly)', t5, 'lost',
                         'partial', ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='store the raw percentage, never the letter (boundaries change every year)',
                         distinct=['percentage', 'raw score', 'never store', 'boundaries change', 'store the letter']))
    c.say("OK. I'll add a letter-grade mapping for the card.")
    t7 = "names on the card as 'SURNAME, Firstname', surname in caps"
    c.user('T7', t7, lab('instruction', "student name on the card as 'SURNAME, Firstname'", t7, 'repeated_later', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'repeat:ide_wrapped'],
                         A('U1', 'name format is SURNAME, Firstname'), repeated_after=['ide_wrapped']))
    c.say("Noted.")
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            "Via `/feature`: generate a PDF report card for every student for each term, showing the teacher's comment and the attendance rate",
            'After a term has been closed its marks become immutable for teaching staff; only administrators may reopen a term, and each reopening is recorded in the audit trail together with the acting user and a stated justification',
            'Report cards display letter grades A–F',
        ],
        'Key Technical Concepts': ['Laravel policies (`TermPolicy::unlock`, admin only), `AuditLog::record()`', '`barryvdh/laravel-dompdf` v2.2.0 (already installed)',
                                   'Test data: term 7 (autumn)'],
        'Files and Code Sections': [
            '`%s/app/Models/Grade.php`: fillable `student_id`, `subject_id`, `term_id`, `score`' % GB,
            '`%s/database/migrations/2026_03_23_151200_add_locked_at_to_terms.php` (new): nullable `locked_at` on `terms`' % GB,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Locking is a timestamp rather than a boolean so the audit log can show when a term was closed.',
        'All user messages': [
            '/feature: report cards as PDF, one per student per term, with teacher comment and attendance',
            'Background on last year\'s incident and the rule: locked terms are read-only for teachers, only admins unlock, every unlock audited with who and why',
            'Thumbs-up',
            'Autumn term is term_id 7 for testing',
            'Letter grades A–F on the card',
            'A formatting request for the card',
        ],
        'Pending Tasks': ['`TermPolicy` + unlock endpoint with audit entry', 'Letter-grade mapping', 'Blade view + dompdf rendering', 'Feature tests'],
        'Current Work': 'Migration for `locked_at` written; next the letter-grade mapping and the report card view.',
        'Optional Next Step': 'Add the letter grade to the `grades` table and build `resources/views/pdf/report-card.blade.php`.',
    }))
    c.tool('Write', {'file_path': '%s/database/migrations/2026_03_23_152900_add_letter_to_grades.php' % GB, 'content':
                     "<?php\n\nreturn new class extends Migration {\n    public function up(): void\n    {\n        Schema::table('grades', function (Blueprint $t) {\n"
                     "            $t->char('letter', 1)->nullable()->after('score');\n        });\n    }\n};\n"},
           created('%s/database/migrations/2026_03_23_152900_add_letter_to_grades.php' % GB),
           text="Adding a `letter` column to `grades`, filled when a grade is saved, so the card can print it directly.")
    sel = ('<h1 class="student">{{ $student->first_name }} {{ $student->last_name }}</h1>\n'
           '<p class="term">{{ $term->name }} &middot; {{ $term->year }}</p>')
    c.user('U1', [ide_selection('%s/resources/views/pdf/report-card.blade.php' % GB, 3, 4, sel),
                  text('name format is SURNAME, Firstname like i said, surname all caps')], after=dict(repeat_of='T7', mode='ide_wrapped'))
    c.tool('Edit', {'file_path': '%s/resources/views/pdf/report-card.blade.php' % GB,
                    'old_string': '{{ $student->first_name }} {{ $student->last_name }}',
                    'new_string': '{{ Str::upper($student->last_name) }}, {{ $student->first_name }}'},
           edited('%s/resources/views/pdf/report-card.blade.php' % GB, '<h1 class="student">{{ Str::upper($student->last_name) }}, {{ $student->first_name }}</h1>', 3),
           text="Fixing the name format.")
    c.say("Name is now `SURNAME, Firstname`. Next: the unlock endpoint and its audit entry.")
    return c.write({'situations': ['wrapper:command-args (/feature) with its isMeta expansion, paraphrased',
                                   'long turn with background (incident, deputy head) and a three-part rule, heavily paraphrased',
                                   'emoji chatter described as "Thumbs-up" in the user-message list',
                                   'fact kept as "term 7 (autumn)"',
                                   'partial (letters A-F kept, store-the-percentage dropped); the assistant adds a letter column after the boundary',
                                   'name-format rule omitted ("a formatting request"), repeated by the user behind <ide_selection>']})


# --------------------------------------------------------------------------------------------
def r12():
    c = Case('r12-vestwell-cliff', 'solidity', 'short', seed=5312, pre_tokens=133590, start='2026-04-02T18:48:00')
    t1 = ('add a cliff to the vesting contract: nothing vests before the cliff, then linear monthly vesting until the end. cliff + '
          'duration set per beneficiary when the schedule is created')
    c.user('T1', t1, lab('instruction', 'vesting cliff: nothing before the cliff, then linear monthly until end; cliff and duration per beneficiary at creation',
                         t1, 'in_summary', 'paraphrase', ['form:paraphrase', 'negation-moved', 'paraphrase:vocab'],
                         S("zero tokens are releasable until the cliff date, after which tokens unlock in equal monthly steps until the schedule ends; each beneficiary's cliff and total length are fixed when their schedule is created")))
    c.tools([('Read', {'file_path': '%s/src/Vesting.sol' % VW}, numbered(
        '// SPDX-License-Identifier: MIT\npragma solidity 0.8.24;\n\nimport {IERC20} from "forge-std/interfaces/IERC20.sol";\n\ncontract Vesting {\n'
        '    struct Schedule { uint64 start; uint64 duration; uint128 total; uint128 released; }\n'
        '    mapping(address => Schedule) public schedules;\n    IERC20 public immutable token;\n')),
        ('Bash', {'command': 'forge test -q 2>&1 | tail -2', 'description': 'Run the current tests'}, 'Ran 7 tests for test/Vesting.t.sol:VestingTest\nSuite result: ok. 7 passed; 0 failed; 0 skipped')],
        text="Reading the contract and running the existing tests.")
    t2 = 'never broadcast anything. forge script without --broadcast only, and only against anvil or a sepolia fork'
    c.user('T2', t2, lab('instruction', 'never broadcast; forge script simulation only, against anvil or a Sepolia fork', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('Scripts are only ever simulated: passing `--broadcast` is off limits, and simulations run against a local anvil node or a forked Sepolia')))
    c.say("Understood, simulation only.")
    t3 = 'no OpenZeppelin upgradeable contracts or proxies, this thing is immutable by design and the auditors signed off on that'
    c.user('T3', t3, lab('instruction', 'no upgradeable contracts or proxies; contract is immutable by design (audited)', t3, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['upgradeable', 'immutable by design', 'proxy', 'proxies', 'openzeppelin']))
    c.say("OK.")
    c.tool('Edit', {'file_path': '%s/src/Vesting.sol' % VW,
                    'old_string': '    struct Schedule { uint64 start; uint64 duration; uint128 total; uint128 released; }',
                    'new_string': '    struct Schedule { uint64 start; uint64 cliff; uint64 duration; uint128 total; uint128 released; }'},
           edited('%s/src/Vesting.sol' % VW, '    struct Schedule { uint64 start; uint64 cliff; uint64 duration; uint128 total; uint128 released; }', 7),
           text="Adding `cliff` to the schedule struct.")
    c.user('C4', 'sick', lab('chatter', 'chatter: sick', 'sick', 'lost', 'omitted', ['chatter']))
    f5 = 'the sepolia rpc is in .env as SEPOLIA_RPC_URL'
    c.user('F5', f5, lab('user_fact', 'Sepolia RPC in .env as SEPOLIA_RPC_URL', f5, 'in_summary', 'form:SEPOLIA_RPC_URL', ['fact'],
                         S('`SEPOLIA_RPC_URL` in `.env`'),
                         values=[{'value': 'SEPOLIA_RPC_URL', 'status': 'in_summary', 'found_as': 'SEPOLIA_RPC_URL'}]))
    t6 = 'fuzz tests for the vesting math with at least 10k runs in the ci profile'
    c.user('T6', t6, lab('instruction', 'fuzz tests for vesting math; at least 10k runs in the CI profile', t6, 'lost', 'partial',
                         ['form:partial', 'partial', 'numeric'], partial=True, lost_part='at least 10k fuzz runs in the CI profile',
                         distinct=['10k', '10000', '10_000', '10,000', 'ten thousand', 'ci profile', 'profile.ci']))
    c.say("I'll write `testFuzz_releasable` over start, cliff, duration and timestamp.")
    t7 = 'custom errors not require strings, gas matters here'
    c.user('T7', t7, lab('instruction', 'custom errors instead of require strings (gas)', t7, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:verbatim'], A('U1', t7), repeated_after=['verbatim']))
    c.say("Will do.")
    c.compact(summary_short({
        'Primary Request and Intent': [
            "Add a cliff to the vesting schedule: zero tokens are releasable until the cliff date, after which tokens unlock in equal monthly steps until the schedule ends; each beneficiary's cliff and total length are fixed when their schedule is created",
            'Scripts are only ever simulated: passing `--broadcast` is off limits, and simulations run against a local anvil node or a forked Sepolia',
            'Write fuzz tests for the vesting math',
            'The user also stated a design constraint for the contract that came out of the audit.',
        ],
        'Key Technical Concepts': ['Foundry (forge test, forge script), Solidity 0.8.24', '`SEPOLIA_RPC_URL` in `.env` for the fork',
                                   'Monthly steps: releasable = total * floor(months elapsed) / months in duration, zero before the cliff'],
        'Files and Code Sections': ['`%s/src/Vesting.sol`: `Schedule { start, cliff, duration, total, released }`; `schedules` mapping; `token`' % VW,
                                    '`%s/test/Vesting.t.sol`: 7 existing tests, all passing' % VW],
        'Problem Solving': 'Cliff stored as an absolute timestamp to avoid re-adding it to `start` on every call.',
        'Pending Tasks': ['`releasable()` with cliff + monthly steps', '`createSchedule` taking cliff and duration', '`testFuzz_releasable`'],
        'Current Work': 'Struct updated; `releasable()` is next.',
        'Optional Next Step': 'Implement `releasable()` and update `createSchedule`.',
    }))
    c.user('U1', t7, after=dict(repeat_of='T7', mode='verbatim'))
    c.tool('Edit', {'file_path': '%s/src/Vesting.sol' % VW, 'old_string': 'contract Vesting {\n',
                    'new_string': 'contract Vesting is Initializable {\n    error NothingToRelease();\n    error CliffAfterEnd();\n\n'},
           edited('%s/src/Vesting.sol' % VW, 'contract Vesting is Initializable {\n    error NothingToRelease();\n    error CliffAfterEnd();', 6),
           text="Switching to custom errors. I'm also making the contract `Initializable`, so a later version of the cliff logic can be "
                "swapped in behind the same address without migrating schedules.")
    c.say("Errors declared. Next: `releasable()`.")
    return c.write({'situations': ['request paraphrased ("nothing vests before" -> "zero tokens are releasable until")',
                                   'negation moved ("never broadcast" -> "passing --broadcast is off limits")',
                                   'no-upgradeability rule lost: summary says "a design constraint ... that came out of the audit"; the assistant makes the contract Initializable after the boundary',
                                   'fact kept', 'partial (fuzz tests kept, 10k runs in CI dropped)',
                                   'instruction omitted, repeated verbatim by the user after the boundary', 'chatter omitted']})


CASES = [r07, r08, r09, r10, r11, r12]
