import { all, create, type MathNode } from 'mathjs';
import { ToolError } from '../plugin.js';

/**
 * Exact arithmetic for the model, which is bad at it. Expressions are parsed
 * by mathjs and evaluated with 64-digit decimal numbers (0.1 + 0.2 is 0.3);
 * before evaluation the parse tree is checked against a closed list of node
 * kinds and functions, so nothing but arithmetic runs (no assignment, no
 * function definitions, no access to mathjs' own functions like `import`).
 * mathjs takes over half a second to load, so this module is imported on the
 * first calculation, not at start-up.
 */
const math = create(all as NonNullable<typeof all>, { number: 'BigNumber', precision: 64 });

const allowedFunctions = new Set([
  'abs',
  'ceil',
  'floor',
  'round',
  'sqrt',
  'cbrt',
  'exp',
  'log',
  'log10',
  'log2',
  'pow',
  'mod',
  'min',
  'max',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'factorial',
  'gcd',
  'lcm',
]);
const allowedConstants = new Set(['pi', 'e']);
const maxExpressionLength = 1_000;

function check(node: MathNode): void {
  node.traverse((child) => {
    switch (child.type) {
      case 'ConstantNode':
      case 'OperatorNode':
      case 'ParenthesisNode':
        return;
      case 'SymbolNode': {
        const name = (child as unknown as { name: string }).name;
        if (allowedConstants.has(name) || allowedFunctions.has(name)) return;
        throw new ToolError(`Unknown name "${name}": only numbers, operators, pi, e and common functions are allowed.`);
      }
      case 'FunctionNode': {
        const fn = (child as unknown as { fn: MathNode }).fn;
        const name = fn.type === 'SymbolNode' ? (fn as unknown as { name: string }).name : '';
        if (allowedFunctions.has(name)) return;
        throw new ToolError(`The function "${name || fn.toString()}" is not allowed.`);
      }
      default:
        throw new ToolError(`"${child.toString()}" is not arithmetic (${child.type}).`);
    }
  });
}

export function evaluateExpression(expression: string): string {
  if (expression.length > maxExpressionLength) {
    throw new ToolError(`The expression is longer than ${maxExpressionLength} characters.`);
  }
  let tree: MathNode;
  try {
    tree = math.parse(expression);
  } catch (error) {
    throw new ToolError(`The expression does not parse: ${(error as Error).message}`);
  }
  check(tree);
  let value: unknown;
  try {
    value = tree.evaluate();
  } catch (error) {
    throw new ToolError(`The expression cannot be evaluated: ${(error as Error).message}`);
  }
  const text = math.format(value as never, { notation: 'auto', precision: 64, lowerExp: -30, upperExp: 64 });
  if (!/^-?(\d|Infinity)/.test(text) && text !== 'NaN') {
    throw new ToolError('The expression does not evaluate to a real number.');
  }
  return text;
}
